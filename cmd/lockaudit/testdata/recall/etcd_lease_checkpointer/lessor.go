// Models etcd#10492 (GoKer etcd_10492): Lessor.Renew holds le.mu and calls the checkpointer func value installed by the server; the server's checkpointer applies the checkpoint through Lessor.Checkpoint, which locks le.mu again (double lock through a func-typed field).
package etcd_lease_checkpointer

import (
	"context"
	"errors"
	"sync"
	"time"
)

// LeaseID identifies a lease.
type LeaseID int64

// ErrLeaseNotFound is returned for an unknown lease.
var ErrLeaseNotFound = errors.New("lease not found")

// Checkpointer persists a lease's remaining TTL through consensus.
type Checkpointer func(ctx context.Context, id LeaseID, remaining time.Duration) error

// Lease is a granted lease.
type Lease struct {
	ttl       time.Duration
	remaining time.Duration
	expiry    time.Time
	revokec   chan struct{}
}

// Lessor grants and renews leases. Buggy version.
type Lessor struct {
	mu     sync.RWMutex
	leases map[LeaseID]*Lease
	cp     Checkpointer
	stopC  chan struct{}
}

// SetCheckpointer installs cp.
func (le *Lessor) SetCheckpointer(cp Checkpointer) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.cp = cp
}

// Checkpoint is applied when a checkpoint entry commits.
func (le *Lessor) Checkpoint(id LeaseID, remaining time.Duration) error {
	le.mu.Lock() // BUG: already held by Renew
	defer le.mu.Unlock()
	if l, ok := le.leases[id]; ok {
		l.remaining = remaining
	}
	return nil
}

// Renew refreshes the lease and returns its TTL.
func (le *Lessor) Renew(id LeaseID) (time.Duration, error) {
	le.mu.Lock()
	unlock := func() { le.mu.Unlock() }
	defer func() { unlock() }()

	l := le.leases[id]
	if l == nil {
		return -1, ErrLeaseNotFound
	}
	if time.Now().After(l.expiry) {
		le.mu.Unlock()
		unlock = func() {}
		select {
		case <-l.revokec:
			return -1, ErrLeaseNotFound
		case <-le.stopC:
			return -1, errors.New("lessor stopped")
		}
	}
	// Clear the persisted remaining TTL so a new leader starts afresh.
	if l.remaining > 0 && le.cp != nil {
		if err := le.cp(context.Background(), id, 0); err != nil { // BUG: le.mu held across the checkpointer
			return -1, err
		}
	}
	l.expiry = time.Now().Add(l.ttl)
	return l.ttl, nil
}

// Server wires the lessor to the apply path.
type Server struct {
	lessor *Lessor
}

// NewServer installs the server's checkpointer.
func NewServer() *Server {
	s := &Server{lessor: &Lessor{leases: map[LeaseID]*Lease{}, stopC: make(chan struct{})}}
	s.lessor.SetCheckpointer(func(ctx context.Context, id LeaseID, rem time.Duration) error {
		return s.applyCheckpoint(ctx, id, rem)
	})
	return s
}

func (s *Server) applyCheckpoint(ctx context.Context, id LeaseID, rem time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.lessor.Checkpoint(id, rem)
}

// LessorFixed is the fixed version: Renew decides under the lock, releases
// it around the checkpointer and relocks to refresh (as etcd did).
type LessorFixed struct {
	mu     sync.RWMutex
	leases map[LeaseID]*Lease
	cp     Checkpointer
	stopC  chan struct{}
}

// SetCheckpointer installs cp.
func (le *LessorFixed) SetCheckpointer(cp Checkpointer) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.cp = cp
}

// Checkpoint is applied when a checkpoint entry commits.
func (le *LessorFixed) Checkpoint(id LeaseID, remaining time.Duration) error {
	le.mu.Lock()
	defer le.mu.Unlock()
	if l, ok := le.leases[id]; ok {
		l.remaining = remaining
	}
	return nil
}

// Renew refreshes the lease and returns its TTL.
func (le *LessorFixed) Renew(id LeaseID) (time.Duration, error) {
	le.mu.RLock()
	l := le.leases[id]
	if l == nil {
		le.mu.RUnlock()
		return -1, ErrLeaseNotFound
	}
	clearRemaining := le.cp != nil && l.remaining > 0
	cp := le.cp
	le.mu.RUnlock()

	if time.Now().After(l.expiry) {
		select {
		case <-l.revokec:
			return -1, ErrLeaseNotFound
		case <-le.stopC:
			return -1, errors.New("lessor stopped")
		}
	}
	if clearRemaining {
		if err := cp(context.Background(), id, 0); err != nil {
			return -1, err
		}
	}
	le.mu.Lock()
	l.expiry = time.Now().Add(l.ttl)
	le.mu.Unlock()
	return l.ttl, nil
}

// ServerFixed wires the fixed lessor to the apply path.
type ServerFixed struct {
	lessor *LessorFixed
}

// NewServerFixed installs the server's checkpointer.
func NewServerFixed() *ServerFixed {
	s := &ServerFixed{lessor: &LessorFixed{leases: map[LeaseID]*Lease{}, stopC: make(chan struct{})}}
	s.lessor.SetCheckpointer(func(ctx context.Context, id LeaseID, rem time.Duration) error {
		return s.applyCheckpoint(ctx, id, rem)
	})
	return s
}

func (s *ServerFixed) applyCheckpoint(ctx context.Context, id LeaseID, rem time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.lessor.Checkpoint(id, rem)
}
