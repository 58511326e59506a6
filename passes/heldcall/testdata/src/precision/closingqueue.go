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

// epochQueue swaps in a new kick channel at each flush and closes the old
// one before it takes the write side: a producer that arrives after the
// swap waits on a channel no writer closes, so the flush waits for it.
type epochQueue struct {
	fence sync.RWMutex
	kick  chan struct{}
	items chan []byte
}

func newEpochQueue(size int) *epochQueue {
	return &epochQueue{kick: make(chan struct{}), items: make(chan []byte, size)}
}

func (q *epochQueue) Push(ctx context.Context, msg []byte) bool {
	q.fence.RLock()
	defer q.fence.RUnlock()
	select { // want `q.fence held across blocking select`
	case q.items <- msg:
		return true
	case <-ctx.Done():
		return false
	case <-q.kick:
		return false
	}
}

func (q *epochQueue) Pop() []byte {
	return <-q.items
}

func (q *epochQueue) Flush() {
	old := q.kick
	q.kick = make(chan struct{})
	close(old)
	q.fence.Lock()
	defer q.fence.Unlock()
	for len(q.items) > 0 {
		<-q.items
	}
}

// peers' lock is one fence over every session, and guards the set of
// live sessions: closing one session's channel wakes that session's
// senders only, not another's, whose Close then waits.
type peerRegistry struct {
	mu       sync.RWMutex
	sessions map[*peerSession]bool
}

var peers peerRegistry

type peerSession struct {
	closing chan struct{}
	out     chan []byte
}

// startPeers makes the sessions, before any Send or Close.
func startPeers(n int) []*peerSession {
	peers.sessions = map[*peerSession]bool{}
	var out []*peerSession
	for range n {
		s := &peerSession{closing: make(chan struct{}), out: make(chan []byte)}
		peers.sessions[s] = true
		out = append(out, s)
	}
	return out
}

func (s *peerSession) Send(ctx context.Context, msg []byte) bool {
	peers.mu.RLock()
	defer peers.mu.RUnlock()
	select { // want `peers.mu held across blocking select`
	case s.out <- msg:
		return true
	case <-ctx.Done():
		return false
	case <-s.closing:
		return false
	}
}

func (s *peerSession) Recv() []byte { return <-s.out }

func (s *peerSession) Close() {
	close(s.closing)
	peers.mu.Lock()
	defer peers.mu.Unlock()
	delete(peers.sessions, s)
}
