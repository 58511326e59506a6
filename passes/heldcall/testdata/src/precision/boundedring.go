package precision

import "sync"

// A ring buffer that a push waits on only when a maximum length is set.
// The producer bounds its promise ring; the share consumer's callback ring
// is never bounded, so pushing onto it never waits.

type ring[T any] struct {
	mu     sync.Mutex
	elems  []T
	maxLen int // if > 0, push waits while the ring holds maxLen elements
	cond   *sync.Cond
}

func (r *ring[T]) initMaxLen(n int) {
	r.maxLen = n
	r.cond = sync.NewCond(&r.mu)
}

func (r *ring[T]) push(e T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.maxLen > 0 && len(r.elems) >= r.maxLen {
		r.cond.Wait()
	}
	r.elems = append(r.elems, e)
}

func (r *ring[T]) pop() (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var zero T
	if len(r.elems) == 0 {
		return zero, false
	}
	e := r.elems[0]
	r.elems = r.elems[1:]
	if r.cond != nil {
		r.cond.Signal()
	}
	return e, true
}

type ackEntry struct {
	topic  string
	offset int64
}

// shareConsumer queues acknowledgement callbacks under its lock; its ring
// is unbounded. Not a finding.
type shareConsumer struct {
	mu        sync.Mutex
	acked     map[string]int64
	callbacks ring[ackEntry]
}

func (s *shareConsumer) MarkAcked(topic string, offset int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acked[topic] = offset
	s.callbacks.push(ackEntry{topic, offset})
}

// batchProducer bounds its promise ring: a push under the producer's lock
// waits for the ring's worker to make room.
type batchProducer struct {
	mu       sync.Mutex
	inflight int
	promises ring[ackEntry]
}

func newBatchProducer(max int) *batchProducer {
	p := &batchProducer{}
	p.promises.initMaxLen(max)
	return p
}

func (p *batchProducer) Promise(topic string, offset int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight++
	p.promises.push(ackEntry{topic, offset}) // want `p.mu held across call of \(\*ring\)\.push, which blocks: \(\*ring\)\.push -> \(\*sync.Cond\).Wait \(locked at boundedring.go:\d+, released by defer\)$`
}
