// Package netio holds network I/O executed while a lock is held, each next
// to its correct twin.
package netio

import (
	"context"
	"log"
	"net"
	"sync"
	"time"
)

// ConnManager keeps one connection per peer.
type ConnManager struct {
	mu     sync.Mutex
	conns  map[string]net.Conn
	dialer net.Dialer
}

// GetHeld dials with the table locked: a peer that drops SYNs stalls every
// lookup for the dial timeout.
func (m *ConnManager) GetHeld(addr string) (net.Conn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.conns[addr]; ok {
		return c, nil
	}
	c, err := net.DialTimeout("tcp", addr, 5*time.Second) // want `m.mu held across call of net.DialTimeout \(locked at conns.go:23, released by defer\)`
	if err != nil {
		return nil, err
	}
	m.conns[addr] = c
	return c, nil
}

// Get dials without the lock and installs the connection after, keeping
// the winner if two callers raced.
func (m *ConnManager) Get(addr string) (net.Conn, error) {
	m.mu.Lock()
	c, ok := m.conns[addr]
	m.mu.Unlock()
	if ok {
		return c, nil
	}
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if c, ok := m.conns[addr]; ok {
		m.mu.Unlock()
		nc.Close()
		return c, nil
	}
	m.conns[addr] = nc
	m.mu.Unlock()
	return nc, nil
}

func (m *ConnManager) GetContextHeld(ctx context.Context, addr string) (net.Conn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.conns[addr]; ok {
		return c, nil
	}
	c, err := m.dialer.DialContext(ctx, "tcp", addr) // want `m.mu held across call of net.\(\*Dialer\).DialContext \(locked at conns.go:61, released by defer\)`
	if err != nil {
		return nil, err
	}
	m.conns[addr] = c
	return c, nil
}

func (m *ConnManager) GetContext(ctx context.Context, addr string) (net.Conn, error) {
	m.mu.Lock()
	c, ok := m.conns[addr]
	m.mu.Unlock()
	if ok {
		return c, nil
	}
	return m.dialer.DialContext(ctx, "tcp", addr)
}

// Peer is a replica that receives heartbeats.
type Peer struct {
	mu   sync.Mutex
	conn net.Conn
	seq  uint64
}

// HeartbeatHeld writes to the socket with the peer locked.
func (p *Peer) HeartbeatHeld() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	msg := []byte{byte(p.seq >> 8), byte(p.seq)}
	_, err := p.conn.Write(msg) // want `p.mu held across call of net.Conn.Write \(locked at conns.go:93, released by defer\)`
	return err
}

func (p *Peer) Heartbeat() error {
	p.mu.Lock()
	p.seq++
	msg := []byte{byte(p.seq >> 8), byte(p.seq)}
	conn := p.conn
	p.mu.Unlock()
	_, err := conn.Write(msg)
	return err
}

// ReadAckHeld reads the peer's ack with the peer locked.
func (p *Peer) ReadAckHeld(buf []byte) (int, error) {
	p.mu.Lock()
	n, err := p.conn.Read(buf) // want `p.mu held across call of net.Conn.Read \(locked at conns.go:113\)`
	p.mu.Unlock()
	return n, err
}

func (p *Peer) ReadAck(buf []byte) (int, error) {
	p.mu.Lock()
	conn := p.conn
	p.mu.Unlock()
	return conn.Read(buf)
}

// Resolver caches DNS answers.
type Resolver struct {
	mu    sync.RWMutex
	cache map[string][]string
}

func (r *Resolver) LookupHeld(host string) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if addrs, ok := r.cache[host]; ok {
		return addrs, nil
	}
	addrs, err := net.LookupHost(host) // want `r.mu held across call of net.LookupHost \(locked at conns.go:133, released by defer\)`
	if err != nil {
		return nil, err
	}
	r.cache[host] = addrs
	return addrs, nil
}

func (r *Resolver) Lookup(host string) ([]string, error) {
	r.mu.RLock()
	addrs, ok := r.cache[host]
	r.mu.RUnlock()
	if ok {
		return addrs, nil
	}
	addrs, err := net.LookupHost(host)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.cache[host] = addrs
	r.mu.Unlock()
	return addrs, nil
}

// Acceptor hands accepted connections to a handler.
type Acceptor struct {
	mu     sync.Mutex
	ln     net.Listener
	active int
}

func (a *Acceptor) AcceptHeld() (net.Conn, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, err := a.ln.Accept() // want `a.mu held across call of net.Listener.Accept \(locked at conns.go:171, released by defer\)`
	if err == nil {
		a.active++
	}
	return c, err
}

func (a *Acceptor) Accept() (net.Conn, error) {
	c, err := a.ln.Accept()
	if err == nil {
		a.mu.Lock()
		a.active++
		a.mu.Unlock()
	}
	return c, err
}

// Drop forgets a peer's connection and logs it under the lock: the
// standard logger does not block the critical section.
func (m *ConnManager) Drop(addr string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.conns[addr]; ok {
		delete(m.conns, addr)
		log.Printf("connmgr: dropped %s (%s)", addr, c.RemoteAddr())
	}
}

// A UDP endpoint tunes its socket when it is registered: the helper only
// sets the conn's deadline and asks for its address, which does no I/O.

type endpoints struct {
	mu    sync.Mutex
	local map[string]net.PacketConn
}

func socketKey(c net.PacketConn) string {
	c.SetDeadline(time.Time{}) // no deadline on a registered socket
	return c.LocalAddr().String()
}

// Register tunes and indexes the conn under the lock. Not a finding.
func (e *endpoints) Register(c net.PacketConn) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.local[socketKey(c)] = c
}

func firstPacket(c net.PacketConn) []byte {
	buf := make([]byte, 1500)
	n, _, _ := c.ReadFrom(buf)
	return buf[:n]
}

// RegisterProbed reads the first packet under the lock: every Register
// waits for the network.
func (e *endpoints) RegisterProbed(c net.PacketConn) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.local[c.LocalAddr().String()] = c
	return firstPacket(c) // want `e.mu held across call of firstPacket, which blocks: firstPacket -> net.PacketConn.ReadFrom \(locked at conns.go:230, released by defer\)`
}
