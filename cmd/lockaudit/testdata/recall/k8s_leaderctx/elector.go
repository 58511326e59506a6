// Package k8s_leaderctx is modelled on a Kubernetes client-go leader
// election bug: once the lease is acquired, Run marks the elector as
// leading under its mutex and then, still holding the mutex, blocks on
// <-ctx.Done() for as long as it leads. IsLeader and GetLeader, called by
// the health checker and by the controllers, need the mutex and hang for
// the whole term.
package k8s_leaderctx

import (
	"context"
	"sync"
)

// LeaderElector runs a leader-election loop for one identity. Buggy version.
type LeaderElector struct {
	mu      sync.Mutex
	id      string
	holder  string
	leading bool
	acquire func(ctx context.Context) bool
}

// NewLeaderElector returns an elector for id.
func NewLeaderElector(id string, acquire func(context.Context) bool) *LeaderElector {
	return &LeaderElector{id: id, acquire: acquire}
}

// Run leads until ctx is cancelled.
func (le *LeaderElector) Run(ctx context.Context) {
	if !le.acquire(ctx) {
		return
	}
	le.mu.Lock()
	le.leading = true
	le.holder = le.id
	<-ctx.Done() // BUG: le.mu held for the whole term
	le.leading = false
	le.holder = ""
	le.mu.Unlock()
}

// IsLeader reports whether this instance leads.
func (le *LeaderElector) IsLeader() bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.leading
}

// GetLeader returns the current holder.
func (le *LeaderElector) GetLeader() string {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.holder
}

// LeaderElectorFixed is the fixed version: the state is set and cleared
// under the mutex; the term is waited out without it.
type LeaderElectorFixed struct {
	mu      sync.Mutex
	id      string
	holder  string
	leading bool
	acquire func(ctx context.Context) bool
}

// NewLeaderElectorFixed returns an elector for id.
func NewLeaderElectorFixed(id string, acquire func(context.Context) bool) *LeaderElectorFixed {
	return &LeaderElectorFixed{id: id, acquire: acquire}
}

// Run leads until ctx is cancelled.
func (le *LeaderElectorFixed) Run(ctx context.Context) {
	if !le.acquire(ctx) {
		return
	}
	le.mu.Lock()
	le.leading = true
	le.holder = le.id
	le.mu.Unlock()
	<-ctx.Done()
	le.mu.Lock()
	le.leading = false
	le.holder = ""
	le.mu.Unlock()
}

// IsLeader reports whether this instance leads.
func (le *LeaderElectorFixed) IsLeader() bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.leading
}

// GetLeader returns the current holder.
func (le *LeaderElectorFixed) GetLeader() string {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.holder
}
