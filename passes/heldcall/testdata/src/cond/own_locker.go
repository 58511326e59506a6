package cond

import (
	"context"
	"sync"
)

// A pausable index sender whose Cond owns its lock: sync.NewCond(new(
// sync.Mutex)), locked through the Cond's own L. Wait releases that L.

type IndexSender struct {
	cond   *sync.Cond
	paused bool
	sent   int

	statsMu sync.Mutex
	stats   map[string]int
}

// NewIndexSender returns a running sender.
func NewIndexSender() *IndexSender {
	return &IndexSender{cond: sync.NewCond(new(sync.Mutex)), stats: map[string]int{}}
}

// WaitResumed waits on the Cond holding only its L. Not a finding.
func (s *IndexSender) WaitResumed() int {
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for s.paused {
		s.cond.Wait()
	}
	return s.sent
}

// WaitResumedCounting keeps the stats lock across the wait: a resume that
// takes statsMu waits for the pause to end.
func (s *IndexSender) WaitResumedCounting() int {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for s.paused {
		s.stats["waits"]++
		s.cond.Wait() // want `s.statsMu held across call of \(\*sync.Cond\).Wait \(locked at own_locker.go:\d+, released by defer\)`
	}
	return s.sent
}

// WaitResumedCtx gives up when ctx is done, and otherwise waits on the
// Cond holding only its L. Not a finding.
func (s *IndexSender) WaitResumedCtx(ctx context.Context) (int, error) {
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for s.paused {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		default:
			s.cond.Wait()
		}
	}
	return s.sent, nil
}

// Pause makes senders wait.
func (s *IndexSender) Pause() {
	s.cond.L.Lock()
	s.paused = true
	s.cond.L.Unlock()
}

// Resume lets the waiting senders go on.
func (s *IndexSender) Resume() {
	s.cond.L.Lock()
	s.paused = false
	s.cond.L.Unlock()
	s.cond.Broadcast()
}
