// Package grpc_backoffsleep is modelled on a grpc-go addrConn reconnect
// bug: after a failed dial, resetTransport sleeps out the backoff with the
// address connection's mutex still held. tearDown (from ClientConn.Close)
// and getState (from the picker) need the mutex, so closing a connection
// to an unreachable backend hangs for up to the maximum backoff on every
// retry, and the picker stalls with it.
package grpc_backoffsleep

import (
	"net"
	"sync"
	"time"
)

type connectivityState int

const (
	idle connectivityState = iota
	connecting
	ready
	transientFailure
	shutdown
)

// addrConn is a connection to one backend address. Buggy version.
type addrConn struct {
	mu      sync.Mutex
	addr    string
	state   connectivityState
	conn    net.Conn
	backoff func(retries int) time.Duration
	dial    func(addr string) (net.Conn, error)
}

func (ac *addrConn) resetTransport() {
	for retries := 0; ; retries++ {
		ac.mu.Lock()
		if ac.state == shutdown {
			ac.mu.Unlock()
			return
		}
		ac.state = connecting
		ac.mu.Unlock()

		conn, err := ac.dial(ac.addr)

		ac.mu.Lock()
		if err == nil {
			ac.conn = conn
			ac.state = ready
			ac.mu.Unlock()
			return
		}
		ac.state = transientFailure
		time.Sleep(ac.backoff(retries)) // BUG: ac.mu held through the backoff
		ac.mu.Unlock()
	}
}

func (ac *addrConn) tearDown() {
	ac.mu.Lock()
	ac.state = shutdown
	if ac.conn != nil {
		ac.conn.Close()
	}
	ac.mu.Unlock()
}

func (ac *addrConn) getState() connectivityState {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	return ac.state
}

// addrConnFixed is the fixed version: the mutex is released before the
// backoff sleep.
type addrConnFixed struct {
	mu      sync.Mutex
	addr    string
	state   connectivityState
	conn    net.Conn
	backoff func(retries int) time.Duration
	dial    func(addr string) (net.Conn, error)
}

func (ac *addrConnFixed) resetTransport() {
	for retries := 0; ; retries++ {
		ac.mu.Lock()
		if ac.state == shutdown {
			ac.mu.Unlock()
			return
		}
		ac.state = connecting
		ac.mu.Unlock()

		conn, err := ac.dial(ac.addr)

		ac.mu.Lock()
		if err == nil {
			ac.conn = conn
			ac.state = ready
			ac.mu.Unlock()
			return
		}
		ac.state = transientFailure
		ac.mu.Unlock()
		time.Sleep(ac.backoff(retries))
	}
}

func (ac *addrConnFixed) tearDown() {
	ac.mu.Lock()
	ac.state = shutdown
	conn := ac.conn
	ac.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}

func (ac *addrConnFixed) getState() connectivityState {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	return ac.state
}

// ClientConn owns the address connections.
type ClientConn struct {
	conns      []*addrConn
	connsFixed []*addrConnFixed
}

// Connect starts connecting to addr with both implementations.
func (cc *ClientConn) Connect(addr string, dial func(string) (net.Conn, error), backoff func(int) time.Duration) {
	ac := &addrConn{addr: addr, dial: dial, backoff: backoff}
	acf := &addrConnFixed{addr: addr, dial: dial, backoff: backoff}
	cc.conns = append(cc.conns, ac)
	cc.connsFixed = append(cc.connsFixed, acf)
	go ac.resetTransport()
	go acf.resetTransport()
}

// Close tears every connection down.
func (cc *ClientConn) Close() {
	for _, ac := range cc.conns {
		ac.tearDown()
	}
	for _, ac := range cc.connsFixed {
		ac.tearDown()
	}
}

// Ready counts the ready connections.
func (cc *ClientConn) Ready() int {
	n := 0
	for _, ac := range cc.conns {
		if ac.getState() == ready {
			n++
		}
	}
	for _, ac := range cc.connsFixed {
		if ac.getState() == ready {
			n++
		}
	}
	return n
}
