package precision

import (
	"context"
	"sync"
)

// An outbound queue's producers hold the read side of closingLock while
// they wait for room, listening on closing too; Close closes closing
// first, then takes the write side to drain the queue. A producer waits
// only until Close has begun, and no one waits for a producer before
// that: readers share the read side. A closer that locks first, or a
// producer that does not listen on closing, keeps the finding. Each
// positive is next to its silent twin.

type outboundQueue struct {
	closeOnce   sync.Once
	closingLock sync.RWMutex
	closing     chan struct{}
	queue       chan []byte
	dropped     int
}

func newOutboundQueue(size int) *outboundQueue {
	return &outboundQueue{closing: make(chan struct{}), queue: make(chan []byte, size)}
}

// Push waits for room, or for Close. Not a finding.
func (q *outboundQueue) Push(ctx context.Context, msg []byte) bool {
	q.closingLock.RLock()
	defer q.closingLock.RUnlock()
	select {
	case q.queue <- msg:
		return true
	case <-ctx.Done():
		return false
	case <-q.closing:
		return false
	}
}

// PushOrCancel waits for room or for the caller's context only: Close,
// waiting for the write side, waits for the caller's context too.
func (q *outboundQueue) PushOrCancel(ctx context.Context, msg []byte) bool {
	q.closingLock.RLock()
	defer q.closingLock.RUnlock()
	select { // want `q.closingLock held across blocking select`
	case q.queue <- msg:
		return true
	case <-ctx.Done():
		return false
	}
}

// Pop waits for a message, or for Close.
func (q *outboundQueue) Pop() ([]byte, bool) {
	select {
	case msg := <-q.queue:
		return msg, true
	case <-q.closing:
		return nil, false
	}
}

// Close wakes every producer, then drains the queue.
func (q *outboundQueue) Close() {
	q.closeOnce.Do(func() {
		close(q.closing)
		q.closingLock.Lock()
		defer q.closingLock.Unlock()
		for {
			select {
			case <-q.queue:
				q.dropped++
			default:
				return
			}
		}
	})
}

// inboundQueue is outboundQueue with a closer that takes the write side
// before it closes closing: it waits for producers that nothing wakes.
type inboundQueue struct {
	closeOnce   sync.Once
	closingLock sync.RWMutex
	closing     chan struct{}
	queue       chan []byte
	dropped     int
}

func newInboundQueue(size int) *inboundQueue {
	return &inboundQueue{closing: make(chan struct{}), queue: make(chan []byte, size)}
}

func (q *inboundQueue) Push(ctx context.Context, msg []byte) bool {
	q.closingLock.RLock()
	defer q.closingLock.RUnlock()
	select { // want `q.closingLock held across blocking select`
	case q.queue <- msg:
		return true
	case <-ctx.Done():
		return false
	case <-q.closing:
		return false
	}
}

func (q *inboundQueue) Pop() ([]byte, bool) {
	select {
	case msg := <-q.queue:
		return msg, true
	case <-q.closing:
		return nil, false
	}
}

func (q *inboundQueue) Close() {
	q.closeOnce.Do(func() {
		q.closingLock.Lock()
		defer q.closingLock.Unlock()
		close(q.closing)
		for {
			select {
			case <-q.queue:
				q.dropped++
			default:
				return
			}
		}
	})
}
