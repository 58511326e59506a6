package cond

import "sync"

// A stream of responses buffers what a receiving goroutine has read in a
// bounded ring. The ring's "slot free" Cond is made, in the ring's
// constructor, on a mutex its caller passes: the stream's own mutex, which
// the stream keeps in a field too. Waiting for a slot releases the
// stream's lock.
type respRing struct {
	slotFree *sync.Cond
	buf      []string
	size     int
}

// newRespRing makes a ring whose methods are called with mtx held.
func newRespRing(size int, mtx *sync.Mutex) *respRing {
	return &respRing{slotFree: sync.NewCond(mtx), size: size}
}

// add waits for a free slot; the caller holds the lock the ring was made
// on.
func (r *respRing) add(resp string) {
	for len(r.buf) >= r.size {
		r.slotFree.Wait()
	}
	r.buf = append(r.buf, resp)
}

func (r *respRing) take() string {
	resp := r.buf[0]
	r.buf = r.buf[1:]
	r.slotFree.Signal()
	return resp
}

type respStream struct {
	mu   *sync.Mutex
	ring *respRing
	done bool
}

func newRespStream(size int, recv func() (string, bool)) *respStream {
	mu := &sync.Mutex{}
	s := &respStream{mu: mu, ring: newRespRing(size, mu)}
	go s.fill(recv)
	return s
}

// fill buffers each response under the stream's lock; a full ring waits
// on a Cond whose Wait releases that same lock: not a finding.
func (s *respStream) fill(recv func() (string, bool)) {
	for {
		resp, ok := recv()
		s.mu.Lock()
		if !ok {
			s.done = true
			s.mu.Unlock()
			return
		}
		s.ring.add(resp)
		s.mu.Unlock()
	}
}

func (s *respStream) Next() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.ring.buf) == 0 {
		return "", !s.done
	}
	return s.ring.take(), true
}

// A batch stream's ring makes its Cond on a mutex of its own, which
// nothing but the Cond holds: waiting for a slot keeps the stream's lock
// held, and Next, which would free the slot, needs that lock.
type batchRing struct {
	slotFree *sync.Cond
	buf      []string
	size     int
}

func newBatchRing(size int) *batchRing {
	return &batchRing{slotFree: sync.NewCond(&sync.Mutex{}), size: size}
}

func (r *batchRing) add(resp string) {
	r.slotFree.L.Lock()
	for len(r.buf) >= r.size {
		r.slotFree.Wait()
	}
	r.buf = append(r.buf, resp)
	r.slotFree.L.Unlock()
}

func (r *batchRing) take() string {
	r.slotFree.L.Lock()
	defer r.slotFree.L.Unlock()
	resp := r.buf[0]
	r.buf = r.buf[1:]
	r.slotFree.Signal()
	return resp
}

type batchStream struct {
	mu   sync.Mutex
	ring *batchRing
}

func newBatchStream(size int) *batchStream {
	return &batchStream{ring: newBatchRing(size)}
}

func (s *batchStream) push(resp string) {
	s.mu.Lock()
	s.ring.add(resp) // want `s.mu held across call of \(\*batchRing\).add, which blocks: \(\*batchRing\).add -> \(\*sync.Cond\).Wait`
	s.mu.Unlock()
}

func (s *batchStream) Next() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ring.take()
}
