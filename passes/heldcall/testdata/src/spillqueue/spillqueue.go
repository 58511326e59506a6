// Package spillqueue is a persistent queue's in-memory front: blocks wait
// in a buffered channel, and readers take one under the queue's lock only
// after checking that one is there. The helpers that take it assert the
// check with a log call that panics, which only its name says.
package spillqueue

import (
	"sync"

	"spillqueue/logger"
)

// Queue holds blocks in memory until a reader takes them.
type Queue struct {
	mu      sync.Mutex
	ch      chan []byte
	pending int
}

// New returns a queue with room for n blocks.
func New(n int) *Queue { return &Queue{ch: make(chan []byte, n)} }

// Write queues a block if there is room.
func (q *Queue) Write(b []byte) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.ch) == cap(q.ch) {
		return false
	}
	q.ch <- b
	q.pending += len(b)
	return true
}

// takeLocked takes a block the caller has seen in the channel: every send
// and receive holds q.mu, so it is still there.
func (q *Queue) takeLocked() []byte {
	if len(q.ch) == 0 {
		logger.Panicf("BUG: takeLocked called on an empty queue")
	}
	b := <-q.ch
	q.pending -= len(b)
	return b
}

// Read takes the next block if there is one: the receive cannot wait.
func (q *Queue) Read() ([]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.ch) > 0 {
		return q.takeLocked(), true
	}
	return nil, false
}

// takeLoggedLocked only logs when the channel is empty, and goes on to
// wait for a block with the lock held.
func (q *Queue) takeLoggedLocked() []byte {
	if len(q.ch) == 0 {
		logger.Errorf("queue empty: waiting for a writer")
	}
	b := <-q.ch
	q.pending -= len(b)
	return b
}

// ReadWait is its twin: with the queue empty, it waits under q.mu, and
// the writer it waits for needs q.mu.
func (q *Queue) ReadWait() []byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.takeLoggedLocked() // want `q.mu held across call of \(\*Queue\).takeLoggedLocked, which blocks: \(\*Queue\).takeLoggedLocked -> channel receive \(locked at spillqueue.go:\d+, released by defer\)`
}
