// want package:"1 lock-order edges"

// Package connpool is a connection pool whose Close locks each connection
// while holding the pool's lock: the pool's lock, then a connection's.
package connpool

import "sync"

// Conn is a pooled connection.
type Conn struct {
	mu     sync.Mutex
	closed bool
	reads  int
}

// Lock locks the connection for a caller's exchange.
func (c *Conn) Lock() { c.mu.Lock() }

// Unlock ends the exchange.
func (c *Conn) Unlock() { c.mu.Unlock() }

// Pool keeps idle connections.
type Pool struct {
	mu    sync.Mutex
	conns []*Conn
	opens int
}

// Close closes every connection under the pool's lock.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
	}
}

// Opens reports how many connections the pool has opened.
func (p *Pool) Opens() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opens
}
