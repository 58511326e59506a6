// Package spool queues jobs to a drain goroutine that is always ready for
// the next one. Queue starts its drain through a starter; Spool, called
// through a method value, only keeps it as a fallback, so a push to it
// waits.
package spool

import (
	"sync"

	"eventbus/spawn"
)

// Queue hands jobs to its drain under its lock.
type Queue struct {
	mu    sync.Mutex
	jobs  chan int
	count int
	group spawn.Fallbacks
	stop  chan struct{}
}

func (q *Queue) drain(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-q.jobs:
		}
	}
}

func (q *Queue) idle(stop <-chan struct{}) {}

// Start starts the drain, keeping idle as the fallback.
func (q *Queue) Start() { q.group.StartOr(q.stop, q.drain, q.idle) }

// Push counts and hands the job on with the lock held: the drain is
// always ready for it.
func (q *Queue) Push(job int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.count++
	select {
	case q.jobs <- job:
	case <-q.stop:
	}
}

// Spool is Queue with the drain kept as the fallback: StartOr, called
// through a method value, starts idle.
type Spool struct {
	mu    sync.Mutex
	jobs  chan int
	count int
	group spawn.Fallbacks
	stop  chan struct{}
}

func (s *Spool) drain(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-s.jobs:
		}
	}
}

func (s *Spool) idle(stop <-chan struct{}) {}

// Start starts idle; the drain runs only if RunFallback is called.
func (s *Spool) Start() {
	start := s.group.StartOr
	start(s.stop, s.idle, s.drain)
}

// Push waits for a drain that may never run.
func (s *Spool) Push(job int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	select { // want `s.mu held across blocking select \(locked at spool.go:\d+, released by defer\)`
	case s.jobs <- job:
	case <-s.stop:
	}
}
