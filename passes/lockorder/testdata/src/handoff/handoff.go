// want package:"2 lock-order edges"

// Package handoff holds locks released by another goroutine before the
// next step: the lock is handed over, not held.
package handoff

import "sync"

// Swapper hands its back buffer's lock to a goroutine that flushes it.
type Swapper struct {
	front, back sync.Mutex
	buf         []byte
	out         [][]byte
}

// Swap locks back, hands it to the flusher, waits for it, then locks
// front: back is not held by then. Not a finding.
func (s *Swapper) Swap() {
	var wg sync.WaitGroup
	s.back.Lock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.out = append(s.out, s.buf)
		s.buf = nil
		s.back.Unlock()
	}()
	wg.Wait()
	s.front.Lock()
	s.buf = make([]byte, 0, 64)
	s.front.Unlock()
}

// Refill takes front, then back.
func (s *Swapper) Refill() {
	s.front.Lock()
	defer s.front.Unlock()
	s.back.Lock() // want `s.back locked while holding s.front \(locked at handoff.go:36\); the opposite order is taken at handoff.go:48: lock-order inversion`
	s.buf = append(s.buf, 0)
	s.back.Unlock()
}

// SwapHeld keeps back held while it takes front: with Refill, two
// goroutines deadlock.
func (s *Swapper) SwapHeld() {
	s.back.Lock()
	defer s.back.Unlock()
	s.front.Lock() // want `s.front locked while holding s.back \(locked at handoff.go:46\); the opposite order is taken at handoff.go:38: lock-order inversion`
	s.buf = nil
	s.front.Unlock()
}

// flushLocked is called with s.front held; it releases it before it takes
// back, and takes it again after.
func (s *Swapper) flushLocked() {
	s.front.Unlock()
	s.back.Lock()
	s.out = append(s.out, s.buf)
	s.back.Unlock()
	s.front.Lock()
}

// Flush holds front across flushLocked, which takes back only with front
// released: no front-then-back order. Not a finding (beside SwapHeld's
// back-then-front).
func (s *Swapper) Flush() {
	s.front.Lock()
	defer s.front.Unlock()
	s.flushLocked()
}
