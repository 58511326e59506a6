// Package semaphore is a minimal stand-in for golang.org/x/sync/semaphore,
// enough for the heldcall tests to type-check.
package semaphore

import "context"

// Weighted is a weighted semaphore.
type Weighted struct {
	slots chan struct{}
}

// NewWeighted returns a semaphore of n slots.
func NewWeighted(n int64) *Weighted {
	return &Weighted{slots: make(chan struct{}, n)}
}

// Acquire takes n slots, blocking until they are free or ctx is done.
func (s *Weighted) Acquire(ctx context.Context, n int64) error {
	for i := int64(0); i < n; i++ {
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Release returns n slots.
func (s *Weighted) Release(n int64) {
	for i := int64(0); i < n; i++ {
		<-s.slots
	}
}
