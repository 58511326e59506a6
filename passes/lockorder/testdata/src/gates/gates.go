// want package:"21 lock-order edges"

// Package gates holds lock-order inversions that a common outer lock
// serialises, each next to one that it does not.
package gates

import "sync"

// Conn is a broker connection: shutdown and Reconnect take its state lock
// and its close lock in opposite orders, both under destructorM.
type Conn struct {
	destructorM sync.Mutex
	m           sync.Mutex
	closeM      sync.Mutex
	closed      bool
	channels    map[string]bool
	recovery    bool
}

func (c *Conn) recoveryEnabled() bool {
	c.closeM.Lock()
	defer c.closeM.Unlock()
	return c.recovery
}

// shutdown takes m, then closeM, under destructorM. Not a finding.
func (c *Conn) shutdown() {
	c.destructorM.Lock()
	defer c.destructorM.Unlock()
	c.m.Lock()
	defer c.m.Unlock()
	if !c.recoveryEnabled() {
		c.channels = nil
	}
}

// Reconnect takes closeM, then m, under destructorM too. Not a finding.
func (c *Conn) Reconnect() {
	c.destructorM.Lock()
	defer c.destructorM.Unlock()
	c.closeM.Lock()
	defer c.closeM.Unlock()
	c.m.Lock()
	c.closed = false
	c.m.Unlock()
}

// Close reaches the reverse order through a helper that only callers
// holding destructorM call. Not a finding.
func (c *Conn) Close() {
	c.destructorM.Lock()
	defer c.destructorM.Unlock()
	c.closeLocked()
}

func (c *Conn) closeLocked() {
	c.closeM.Lock()
	defer c.closeM.Unlock()
	c.m.Lock()
	c.closed = true
	c.m.Unlock()
}

// LooseConn is the same connection whose Reconnect does not take
// destructorM: a shutdown beside it can deadlock.
type LooseConn struct {
	destructorM sync.Mutex
	m           sync.Mutex
	closeM      sync.Mutex
	closed      bool
	channels    map[string]bool
	recovery    bool
}

func (c *LooseConn) recoveryEnabled() bool {
	c.closeM.Lock()
	defer c.closeM.Unlock()
	return c.recovery
}

func (c *LooseConn) shutdown() {
	c.destructorM.Lock()
	defer c.destructorM.Unlock()
	c.m.Lock()
	defer c.m.Unlock()
	if !c.recoveryEnabled() { // want `c.closeM locked through call of \(\*LooseConn\).recoveryEnabled while holding c.m \(locked at gates.go:\d+\); the opposite order is taken at gates.go:\d+: lock-order inversion`
		c.channels = nil
	}
}

func (c *LooseConn) Reconnect() {
	c.closeM.Lock()
	defer c.closeM.Unlock()
	c.m.Lock() // want `c.m locked while holding c.closeM \(locked at gates.go:\d+\); the opposite order is taken at gates.go:\d+: lock-order inversion`
	c.closed = false
	c.m.Unlock()
}

// Broker's sessions take their locks in opposite orders under the
// broker's lock, a lock of another object: two brokers' gates do not
// serialise one session.
type Broker struct {
	mu sync.Mutex
}

type Session struct {
	in, out sync.Mutex
	sent    int
}

func (b *Broker) Flush(s *Session) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s.in.Lock()
	s.out.Lock() // want `s.out locked while holding s.in \(locked at gates.go:\d+\); the opposite order is taken at gates.go:\d+: lock-order inversion`
	s.sent++
	s.out.Unlock()
	s.in.Unlock()
}

func (b *Broker) Drain(s *Session) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s.out.Lock()
	s.in.Lock() // want `s.in locked while holding s.out \(locked at gates.go:\d+\); the opposite order is taken at gates.go:\d+: lock-order inversion`
	s.sent = 0
	s.in.Unlock()
	s.out.Unlock()
}

// Pool's shutdown reaches its close lock through a channel's back-pointer
// to the pool: the gate is the pool's, the lock it holds first. Not a
// finding.
type Pool struct {
	destructorM sync.Mutex
	m           sync.Mutex
	closeM      sync.Mutex
	channels    []*poolChannel
	closed      bool
}

type poolChannel struct {
	pool *Pool
	open bool
}

func (ch *poolChannel) shutdown() {
	ch.pool.closeM.Lock()
	ch.open = false
	ch.pool.closeM.Unlock()
}

func (p *Pool) shutdown() {
	p.destructorM.Lock()
	defer p.destructorM.Unlock()
	p.m.Lock()
	defer p.m.Unlock()
	for _, ch := range p.channels {
		ch.shutdown()
	}
}

func (p *Pool) Reconnect() {
	p.destructorM.Lock()
	defer p.destructorM.Unlock()
	p.closeM.Lock()
	defer p.closeM.Unlock()
	p.m.Lock()
	p.closed = false
	p.m.Unlock()
}
