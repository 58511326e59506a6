// Package defers holds locks released by deferred calls: the lock stays
// held to the end of the function, and the message says so. Each positive
// is next to its correct twin.
package defers

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Job is a scheduled job.
type Job struct {
	Name string
	Run  func(context.Context) error
	Next time.Time
}

// Scheduler runs due jobs.
type Scheduler struct {
	mu   sync.Mutex
	jobs []*Job
	hist map[string]error
}

// RunDueHeld runs each job below a defer: the whole run holds s.mu.
func (s *Scheduler) RunDueHeld(ctx context.Context, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.jobs {
		if j.Next.After(now) {
			continue
		}
		s.hist[j.Name] = j.Run(ctx) // want `s.mu held across call of func value j.Run \(locked at defers.go:29, released by defer\)`
	}
}

// RunDue collects the due jobs under a short critical section and runs
// them after; results are recorded under the lock again.
func (s *Scheduler) RunDue(ctx context.Context, now time.Time) {
	due := s.due(now)
	for _, j := range due {
		err := j.Run(ctx)
		s.mu.Lock()
		s.hist[j.Name] = err
		s.mu.Unlock()
	}
}

func (s *Scheduler) due(now time.Time) []*Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Job
	for _, j := range s.jobs {
		if !j.Next.After(now) {
			out = append(out, j)
		}
	}
	return out
}

// StopHeld releases in a deferred closure; the lock is held until it
// runs.
func (s *Scheduler) StopHeld(ctx context.Context, done <-chan struct{}) error {
	s.mu.Lock()
	defer func() {
		s.jobs = nil
		s.mu.Unlock()
	}()
	select { // want `s.mu held across blocking select \(locked at defers.go:66, released by defer\)`
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Scheduler) Stop(ctx context.Context, done <-chan struct{}) error {
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.mu.Lock()
	defer func() {
		s.jobs = nil
		s.mu.Unlock()
	}()
	return err
}

// ErrBusy is returned when a tenant is over its quota.
var ErrBusy = errors.New("busy")

// Quota tracks in-flight requests per tenant.
type Quota struct {
	mu       sync.RWMutex
	inflight map[string]int
	limit    int
	wait     func(tenant string) error
}

// AcquireHeld waits for capacity below a deferred RUnlock.
func (q *Quota) AcquireHeld(tenant string) error {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.inflight[tenant] < q.limit {
		return nil
	}
	return q.wait(tenant) // want `q.mu held across call of func value q.wait \(locked at defers.go:107, released by defer\) \(plausible: the func value can be field wait, which the package never sets\)`
}

func (q *Quota) Acquire(tenant string) error {
	q.mu.RLock()
	ok := q.inflight[tenant] < q.limit
	q.mu.RUnlock()
	if ok {
		return nil
	}
	return q.wait(tenant)
}

// ReleaseEarly unlocks explicitly on the slow path before waiting and
// relies on the defer only on the fast path.
func (q *Quota) ReleaseEarly(tenant string) error {
	q.mu.RLock()
	if q.inflight[tenant] >= q.limit {
		q.mu.RUnlock()
		return q.wait(tenant)
	}
	defer q.mu.RUnlock()
	if q.inflight[tenant] < 0 {
		return ErrBusy
	}
	return nil
}

// Lease is a renewable lease on a key.
type Lease struct {
	mu      sync.Mutex
	expires time.Time
	renew   chan time.Duration
}

// RenewHeld defers the unlock and then asks the renewer.
func (l *Lease) RenewHeld(d time.Duration) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.renew <- d // want `l.mu held across channel send \(locked at defers.go:149, released by defer\)`
	l.expires = time.Now().Add(d)
	return l.expires
}

func (l *Lease) Renew(d time.Duration) time.Time {
	l.renew <- d
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expires = time.Now().Add(d)
	return l.expires
}
