package precision

import (
	"errors"
	"sync"
)

// A node runner reports, once, whether the node became ready: Ready
// returns a channel that a goroutine fills with the start error.

type nodeRunner struct {
	mu    sync.RWMutex
	err   error
	ready chan struct{}
	done  chan struct{}
}

var errNodeStopped = errors.New("node stopped")

// Ready's goroutine sends the error into a slot made for it: with room
// for the one value it ever gets, the send under the read lock cannot
// wait.
func (n *nodeRunner) Ready() chan error {
	c := make(chan error, 1)
	n.mu.RLock()
	ready, done := n.ready, n.done
	n.mu.RUnlock()
	go func() {
		select {
		case <-ready:
		case <-done:
		}
		n.mu.RLock()
		c <- n.err
		n.mu.RUnlock()
		close(c)
	}()
	return c
}

// ReadyUnbuffered's twin hands the error over an unbuffered channel:
// the goroutine holds the read lock until a caller receives, and a
// Stop that wants the write lock waits for that caller.
func (n *nodeRunner) ReadyUnbuffered() chan error {
	c := make(chan error)
	n.mu.RLock()
	ready, done := n.ready, n.done
	n.mu.RUnlock()
	go func() {
		select {
		case <-ready:
		case <-done:
		}
		n.mu.RLock()
		c <- n.err // want `n.mu held across channel send \(locked at capturedchan.go:54\)`
		n.mu.RUnlock()
		close(c)
	}()
	return c
}

func (n *nodeRunner) Stop() {
	n.mu.Lock()
	n.err = errNodeStopped
	n.mu.Unlock()
}
