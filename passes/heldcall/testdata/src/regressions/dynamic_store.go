package regressions

import (
	"net"
	"sync"
)

// From a raft node host: a connection is linked into the value a func
// field returns. The store's target has no static callee, which once
// crashed the escape walk and cost the package all its findings.

// peer is one remote node's connection.
type peer struct {
	conn net.Conn
	next *peer
}

// PeerRing keeps the peers a func field chooses the tail of.
type PeerRing struct {
	mu   sync.Mutex
	tail func() *peer
	sent int
}

// link stores p behind a dynamic call's result: p escapes there.
func (r *PeerRing) link(p *peer) {
	r.tail().next = p
}

// AddAndGreet writes to the new peer while the ring is locked.
func (r *PeerRing) AddAndGreet(p *peer, hello []byte) {
	r.link(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	p.conn.Write(hello) // want `r.mu held across call of net.Conn.Write`
	r.sent++
}

// AddThenGreet writes after the unlock.
func (r *PeerRing) AddThenGreet(p *peer, hello []byte) {
	r.link(p)
	r.mu.Lock()
	r.sent++
	r.mu.Unlock()
	p.conn.Write(hello)
}
