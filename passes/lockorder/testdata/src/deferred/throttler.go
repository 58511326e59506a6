// want package:"2 lock-order edges"

// Package deferred holds functions whose deferred calls take a lock that
// is still held when they run: deferred calls run last in, first out, so a
// call deferred after the deferred Unlock runs before it.
package deferred

import (
	"sync"
	"time"
)

// Throttler limits the requests in flight to a backend and reports its
// capacity to a metrics sink.
type Throttler struct {
	mu       sync.Mutex
	capacity int
	inflight int
	sink     func(int)
}

// Capacity returns the current capacity.
func (t *Throttler) Capacity() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.capacity
}

func (t *Throttler) publish() {
	t.sink(t.Capacity())
}

// UpdateCapacityHeld defers the report after the Unlock: the report runs
// first, with t.mu held, and locks it again.
func (t *Throttler) UpdateCapacityHeld(endpoints, perEndpoint int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.publish() // want `t.mu locked again through deferred call of \(\*Throttler\).publish while held \(locked at throttler.go:36\)`
	t.capacity = endpoints * perEndpoint
}

// UpdateCapacity is its twin: the report is deferred first, so it runs
// after the Unlock.
func (t *Throttler) UpdateCapacity(endpoints, perEndpoint int) {
	defer t.publish()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.capacity = endpoints * perEndpoint
}

// ResizeHeld reports from a deferred closure, still under t.mu.
func (t *Throttler) ResizeHeld(delta int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer func() { // want `t.mu locked again through deferred call of \(\*Throttler\).ResizeHeld.func1 while held \(locked at throttler.go:53\)`
		t.sink(t.Capacity())
	}()
	t.capacity += delta
}

// Resize is its twin: it unlocks explicitly before it returns, so the
// deferred report runs without the lock.
func (t *Throttler) Resize(delta int) {
	t.mu.Lock()
	defer t.publish()
	if delta == 0 {
		t.mu.Unlock()
		return
	}
	t.capacity += delta
	t.mu.Unlock()
}

// Release gives a slot back. The report deferred before the Unlock runs
// after it.
func (t *Throttler) Release() {
	defer t.publish()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.inflight--
}

// Conn is a pooled connection whose state is logged on every change.
type Conn struct {
	mu    sync.Mutex
	state string
	log   []string
}

func (c *Conn) logState() {
	c.mu.Lock()
	c.log = append(c.log, c.state)
	c.mu.Unlock()
}

// checkoutHeld returns with c.mu held for its caller, which releases it
// with checkin; the deferred log runs with the lock held.
func (c *Conn) checkoutHeld() {
	c.mu.Lock()
	defer c.logState() // want `c.mu locked again through deferred call of \(\*Conn\).logState while held \(locked at throttler.go:99\)`
	c.state = "busy"
}

// checkin releases the connection that checkoutHeld handed out.
func (c *Conn) checkin() {
	c.state = "idle"
	c.mu.Unlock()
}

// Touch locks by mistake where it meant to unlock: the deferred Lock runs
// with c.mu held.
func (c *Conn) Touch() {
	c.mu.Lock()
	defer c.mu.Lock() // want `c.mu locked again by a deferred call while held \(locked at throttler.go:113\)`
	c.state = "touched"
}

// TouchFixed is its twin.
func (c *Conn) TouchFixed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = "touched"
}

// Stats counts a pool's checkouts under its own lock.
type Stats struct {
	mu    sync.Mutex
	count int
	pool  *Pool
	last  time.Time
}

// Pool hands out connections.
type Pool struct {
	mu    sync.Mutex
	idle  []*Conn
	stats *Stats
}

func (s *Stats) record() {
	s.mu.Lock()
	s.count++
	s.last = time.Now()
	s.mu.Unlock()
}

// GetHeld records the checkout from a defer that runs under p.mu: p.mu,
// then p.stats.mu.
func (p *Pool) GetHeld() *Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.stats.record() // want `p.stats.mu locked through deferred call of \(\*Stats\).record while holding p.mu \(locked at throttler.go:150\); the opposite order is taken at throttler.go:174: lock-order inversion`
	if len(p.idle) == 0 {
		return nil
	}
	c := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return c
}

// Get is its twin: the checkout is recorded after the Unlock.
func (p *Pool) Get() *Conn {
	defer p.stats.record()
	p.mu.Lock()
	defer p.mu.Unlock()
	return nil
}

// Report reads the pool's size under the stats lock: s.mu, then
// s.pool.mu.
func (s *Stats) Report() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pool.mu.Lock() // want `s.pool.mu locked while holding s.mu \(locked at throttler.go:172\); the opposite order is taken at throttler.go:152: lock-order inversion`
	n := len(s.pool.idle)
	s.pool.mu.Unlock()
	return n + s.count
}
