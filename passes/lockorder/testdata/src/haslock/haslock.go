// Package haslock holds the hasLock idiom of large servers: a helper that
// takes the lock only when its caller does not hold it.
package haslock

import "sync"

// Stream keeps messages; some of its helpers run with s.mu held.
type Stream struct {
	mu   sync.Mutex
	msgs map[uint64][]byte
	last uint64
}

func (s *Stream) removeMsg(seq uint64, needLock bool) bool {
	if needLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	_, ok := s.msgs[seq]
	delete(s.msgs, seq)
	return ok
}

// lockIf wraps the lock in closures, as some servers do.
func (s *Stream) purge(seqs []uint64, hasLock bool) {
	lock := func() {
		if !hasLock {
			s.mu.Lock()
		}
	}
	unlock := func() {
		if !hasLock {
			s.mu.Unlock()
		}
	}
	lock()
	defer unlock()
	for _, seq := range seqs {
		delete(s.msgs, seq)
	}
}

// Expire holds s.mu and tells both helpers so. Not a finding.
func (s *Stream) Expire(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeMsg(seq, false)
	s.purge([]uint64{seq}, true)
	s.last = seq
}

// ExpireHeld holds s.mu and asks the helper to take it again.
func (s *Stream) ExpireHeld(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeMsg(seq, true) // want `s.mu locked again through call of \(\*Stream\).removeMsg while held \(locked at haslock.go:54\)`
	s.last = seq
}

// Remove does not hold s.mu: the helper takes it.
func (s *Stream) Remove(seq uint64) bool {
	return s.removeMsg(seq, true)
}

// ack takes the lock only when it acks in place, which needs needLock: a
// compound condition.
func (s *Stream) ack(seq uint64, needLock bool) {
	inPlace := s.last > 0 && needLock
	if inPlace {
		s.mu.Lock()
		delete(s.msgs, seq)
		s.mu.Unlock()
	}
}

// Term holds s.mu and acks with needLock false. Not a finding.
func (s *Stream) Term(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ack(seq, false)
}

// TermHeld holds s.mu and asks ack to take it.
func (s *Stream) TermHeld(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ack(seq, true) // want `s.mu locked again through call of \(\*Stream\).ack while held \(locked at haslock.go:85\)`
}
