package funcargs

import "sync"

// Conn is a pooled connection.
type Conn struct {
	addr string
	idle bool
}

// Pool keeps idle connections by address.
type Pool struct {
	mu    sync.Mutex
	conns map[string][]*Conn
	stats *Stats
}

// Put returns c to the pool.
func (p *Pool) Put(c *Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c.idle = true
	p.conns[c.addr] = append(p.conns[c.addr], c)
}

// Idle counts the idle connections to addr.
func (p *Pool) Idle(addr string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.conns[addr] {
		if c.idle {
			n++
		}
	}
	return n
}

// each calls f for every connection; the caller holds p.mu.
func (p *Pool) each(f func(c *Conn)) {
	for _, cs := range p.conns {
		for _, c := range cs {
			f(c)
		}
	}
}

// ReportHeld locks the pool and asks Idle, which locks it again, for
// each connection's address.
func (p *Pool) ReportHeld() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	p.each(func(c *Conn) { out[c.addr] = p.Idle(c.addr) }) // want `p.mu locked again through call of \(\*Pool\).each while held \(locked at pool.go:51\)`
	return out
}

// Report is its twin: it counts from the map it already holds.
func (p *Pool) Report() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	p.each(func(c *Conn) {
		if c.idle {
			out[c.addr]++
		}
	})
	return out
}

// Stats counts the pool's events under its own lock.
type Stats struct {
	mu     sync.Mutex
	closed int
}

func (s *Stats) record() {
	s.mu.Lock()
	s.closed++
	s.mu.Unlock()
}

// Snapshot holds the stats' lock while it counts the idle connections:
// p.stats.mu, then p.mu.
func (p *Pool) Snapshot() (closed, idle int) {
	p.stats.mu.Lock()
	defer p.stats.mu.Unlock()
	return p.stats.closed, p.Idle("") // want `p.mu locked through call of \(\*Pool\).Idle while holding p.stats.mu \(locked at pool.go:86\); the opposite order is taken at pool.go:96: lock-order inversion`
}

// CloseIdleHeld records each closed connection through a closure handed
// to each, with p.mu held: p.mu, then p.stats.mu.
func (p *Pool) CloseIdleHeld() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.each(func(c *Conn) { // want `p.stats.mu locked through call of \(\*Pool\).each while holding p.mu \(locked at pool.go:94\); the opposite order is taken at pool.go:88: lock-order inversion`
		if c.idle {
			c.idle = false
			p.stats.record()
		}
	})
}

// CloseIdle is its twin: it records after releasing p.mu.
func (p *Pool) CloseIdle() {
	p.mu.Lock()
	n := 0
	p.each(func(c *Conn) {
		if c.idle {
			c.idle = false
			n++
		}
	})
	p.mu.Unlock()
	for range n {
		p.stats.record()
	}
}
