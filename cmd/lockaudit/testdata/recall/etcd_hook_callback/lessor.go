// Package etcd_hook_callback is modelled on an etcd lessor bug where a
// user-registered callback runs under the lessor's mutex: Revoke calls
// every registered revoke hook with le.mu held, and the server's hook
// looks the lease's remaining TTL up through Lookup, which takes le.mu.
// The first revoke of a lease with a hook deadlocks the lessor.
package etcd_hook_callback

import (
	"errors"
	"sync"
)

// ErrNotFound is returned for an unknown lease.
var ErrNotFound = errors.New("lease not found")

// Lease is a granted lease.
type Lease struct {
	ID  int64
	TTL int64
}

// RevokeHook is called for every revoked lease.
type RevokeHook func(id int64)

// Lessor grants and revokes leases. Buggy version.
type Lessor struct {
	mu     sync.Mutex
	leases map[int64]*Lease
	hooks  []RevokeHook
}

// NewLessor returns an empty lessor.
func NewLessor() *Lessor { return &Lessor{leases: map[int64]*Lease{}} }

// OnRevoke registers h.
func (le *Lessor) OnRevoke(h RevokeHook) {
	le.mu.Lock()
	le.hooks = append(le.hooks, h)
	le.mu.Unlock()
}

// Grant creates a lease.
func (le *Lessor) Grant(id, ttl int64) {
	le.mu.Lock()
	le.leases[id] = &Lease{ID: id, TTL: ttl}
	le.mu.Unlock()
}

// Lookup returns lease id.
func (le *Lessor) Lookup(id int64) *Lease {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.leases[id]
}

// Revoke deletes lease id and runs the revoke hooks.
func (le *Lessor) Revoke(id int64) error {
	le.mu.Lock()
	defer le.mu.Unlock()
	if _, ok := le.leases[id]; !ok {
		return ErrNotFound
	}
	delete(le.leases, id)
	for _, h := range le.hooks {
		h(id) // BUG: user code under le.mu; the server's hook calls Lookup
	}
	return nil
}

// LessorFixed is the fixed version: the hooks are copied under the mutex
// and run after it is released.
type LessorFixed struct {
	mu     sync.Mutex
	leases map[int64]*Lease
	hooks  []RevokeHook
}

// NewLessorFixed returns an empty lessor.
func NewLessorFixed() *LessorFixed { return &LessorFixed{leases: map[int64]*Lease{}} }

// OnRevoke registers h.
func (le *LessorFixed) OnRevoke(h RevokeHook) {
	le.mu.Lock()
	le.hooks = append(le.hooks, h)
	le.mu.Unlock()
}

// Grant creates a lease.
func (le *LessorFixed) Grant(id, ttl int64) {
	le.mu.Lock()
	le.leases[id] = &Lease{ID: id, TTL: ttl}
	le.mu.Unlock()
}

// Lookup returns lease id.
func (le *LessorFixed) Lookup(id int64) *Lease {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.leases[id]
}

// Revoke deletes lease id and runs the revoke hooks.
func (le *LessorFixed) Revoke(id int64) error {
	le.mu.Lock()
	if _, ok := le.leases[id]; !ok {
		le.mu.Unlock()
		return ErrNotFound
	}
	delete(le.leases, id)
	hooks := append([]RevokeHook(nil), le.hooks...)
	le.mu.Unlock()
	for _, h := range hooks {
		h(id)
	}
	return nil
}
