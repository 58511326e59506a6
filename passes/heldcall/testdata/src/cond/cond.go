// Package cond holds sync.Cond waits. Waiting on the Cond whose L is the
// held lock releases it and is not a finding; waiting while another lock
// stays held is.
package cond

import "sync"

// BoundedQueue is a blocking FIFO of byte slices.
type BoundedQueue struct {
	mu       sync.Mutex
	notEmpty *sync.Cond
	notFull  *sync.Cond
	items    [][]byte
	max      int
}

func NewBoundedQueue(max int) *BoundedQueue {
	q := &BoundedQueue{max: max}
	q.notEmpty = sync.NewCond(&q.mu)
	q.notFull = sync.NewCond(&q.mu)
	return q
}

// Put waits on a Cond of q.mu: Wait releases q.mu, not a finding.
func (q *BoundedQueue) Put(b []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) >= q.max {
		q.notFull.Wait()
	}
	q.items = append(q.items, b)
	q.notEmpty.Signal()
}

// Take waits on the other Cond of q.mu: still not a finding.
func (q *BoundedQueue) Take() []byte {
	q.mu.Lock()
	for len(q.items) == 0 {
		q.notEmpty.Wait()
	}
	b := q.items[0]
	q.items = q.items[1:]
	q.notFull.Signal()
	q.mu.Unlock()
	return b
}

// waitItems waits until the queue is not empty; q.mu must be held.
func (q *BoundedQueue) waitItems() {
	for len(q.items) == 0 {
		q.notEmpty.Wait()
	}
}

// Peek calls a helper that waits on q.mu's Cond while holding only q.mu:
// not a finding.
func (q *BoundedQueue) Peek() []byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.waitItems()
	return q.items[0]
}

// Pipeline moves batches from an input queue to a sink.
type Pipeline struct {
	mu      sync.Mutex
	in      *BoundedQueue
	batches int
	paused  bool
}

// NextHeld keeps p.mu held while it waits for input: Wait releases in.mu,
// not p.mu, so Pause and Stats block until a producer shows up.
func (p *Pipeline) NextHeld() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.in.mu.Lock()
	for len(p.in.items) == 0 {
		p.in.notEmpty.Wait() // want `p.mu held across call of \(\*sync.Cond\).Wait \(locked at cond.go:75, released by defer\)`
	}
	b := p.in.items[0]
	p.in.items = p.in.items[1:]
	p.in.mu.Unlock()
	p.batches++
	return b
}

// Next takes its input first and updates its own state after.
func (p *Pipeline) Next() []byte {
	b := p.in.Take()
	p.mu.Lock()
	p.batches++
	p.mu.Unlock()
	return b
}

// PeekHeld calls a helper that waits on in.mu's Cond with p.mu held.
func (p *Pipeline) PeekHeld() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.in.mu.Lock()
	defer p.in.mu.Unlock()
	p.in.waitItems() // want `p.mu held across call of \(\*BoundedQueue\).waitItems, which blocks: \(\*BoundedQueue\).waitItems -> \(\*sync.Cond\).Wait \(locked at cond.go:99, released by defer\)`
	return p.in.items[0]
}

func (p *Pipeline) Peek() []byte {
	b := p.in.Peek()
	p.mu.Lock()
	p.batches++
	p.mu.Unlock()
	return b
}

// Barrier releases a fixed number of parties together.
type Barrier struct {
	mu      sync.Mutex
	arrived *sync.Cond
	n, seen int
	round   int
}

func NewBarrier(n int) *Barrier {
	b := &Barrier{n: n}
	b.arrived = &sync.Cond{L: &b.mu}
	return b
}

// Await waits on a Cond built as &sync.Cond{L: &b.mu}: not a finding.
func (b *Barrier) Await() {
	b.mu.Lock()
	defer b.mu.Unlock()
	round := b.round
	b.seen++
	if b.seen == b.n {
		b.seen = 0
		b.round++
		b.arrived.Broadcast()
		return
	}
	for round == b.round {
		b.arrived.Wait()
	}
}

// Coordinator runs phases of a job across workers.
type Coordinator struct {
	mu      sync.Mutex
	barrier *Barrier
	phase   int
}

// StepHeld keeps the coordinator locked while it waits at the barrier for
// the other workers, which need c.mu to reach it.
func (c *Coordinator) StepHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.phase++
	c.barrier.mu.Lock()
	round := c.barrier.round
	c.barrier.seen++
	for round == c.barrier.round {
		c.barrier.arrived.Wait() // want `c.mu held across call of \(\*sync.Cond\).Wait \(locked at cond.go:156, released by defer\)`
	}
	c.barrier.mu.Unlock()
}

func (c *Coordinator) Step() {
	c.mu.Lock()
	c.phase++
	c.mu.Unlock()
	c.barrier.Await()
}

// Gate opens once; its Cond's L is set by assignment.
type Gate struct {
	mu     sync.Mutex
	opened sync.Cond
	open   bool
}

func NewGate() *Gate {
	g := &Gate{}
	g.opened.L = &g.mu
	return g
}

// Wait waits on a Cond whose L was assigned: not a finding.
func (g *Gate) Wait() {
	g.mu.Lock()
	for !g.open {
		g.opened.Wait()
	}
	g.mu.Unlock()
}

// Service waits for its dependencies' gates before serving.
type Service struct {
	mu    sync.Mutex
	ready *Gate
	state string
}

// State reports the service's state to its health check.
func (s *Service) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

func (s *Service) StartHeld() {
	s.mu.Lock()
	s.state = "starting"
	s.ready.mu.Lock()
	for !s.ready.open {
		s.ready.opened.Wait() // want `s.mu held across call of \(\*sync.Cond\).Wait \(locked at cond.go:\d+\)`
	}
	s.ready.mu.Unlock()
	s.state = "running"
	s.mu.Unlock()
}

func (s *Service) Start() {
	s.mu.Lock()
	s.state = "starting"
	s.mu.Unlock()
	s.ready.Wait()
	s.mu.Lock()
	s.state = "running"
	s.mu.Unlock()
}
