// Package grpc_leak_continue is modelled on a grpc-go reconnect-loop
// self-deadlock: resetTransport locks the address connection at the top of
// each attempt and `continue`s past the address that failed last time
// without unlocking, so the next iteration's Lock of the same mutex
// deadlocks the reconnect goroutine (and everything else that needs the
// connection's state).
package grpc_leak_continue

import (
	"net"
	"sync"
)

// addrConn connects to one of a backend's addresses. Buggy version.
type addrConn struct {
	mu         sync.Mutex
	addrs      []string
	lastFailed string
	shutdown   bool
	conn       net.Conn
	dial       func(addr string) (net.Conn, error)
}

func (ac *addrConn) resetTransport() {
	for i := 0; ; i++ {
		ac.mu.Lock()
		if ac.shutdown {
			ac.mu.Unlock()
			return
		}
		addr := ac.addrs[i%len(ac.addrs)]
		if addr == ac.lastFailed && len(ac.addrs) > 1 {
			continue // BUG: ac.mu still locked; the next iteration locks it again
		}
		ac.mu.Unlock()

		conn, err := ac.dial(addr)

		ac.mu.Lock()
		if err != nil {
			ac.lastFailed = addr
			ac.mu.Unlock()
			continue
		}
		ac.conn = conn
		ac.mu.Unlock()
		return
	}
}

func (ac *addrConn) tearDown() {
	ac.mu.Lock()
	ac.shutdown = true
	ac.mu.Unlock()
}

// addrConnFixed is the fixed version: the skip unlocks first.
type addrConnFixed struct {
	mu         sync.Mutex
	addrs      []string
	lastFailed string
	shutdown   bool
	conn       net.Conn
	dial       func(addr string) (net.Conn, error)
}

func (ac *addrConnFixed) resetTransport() {
	for i := 0; ; i++ {
		ac.mu.Lock()
		if ac.shutdown {
			ac.mu.Unlock()
			return
		}
		addr := ac.addrs[i%len(ac.addrs)]
		if addr == ac.lastFailed && len(ac.addrs) > 1 {
			ac.mu.Unlock()
			continue
		}
		ac.mu.Unlock()

		conn, err := ac.dial(addr)

		ac.mu.Lock()
		if err != nil {
			ac.lastFailed = addr
			ac.mu.Unlock()
			continue
		}
		ac.conn = conn
		ac.mu.Unlock()
		return
	}
}

func (ac *addrConnFixed) tearDown() {
	ac.mu.Lock()
	ac.shutdown = true
	ac.mu.Unlock()
}

// Connect starts both implementations on addrs; the returned func tears them down.
func Connect(addrs []string, dial func(string) (net.Conn, error)) (stop func()) {
	ac := &addrConn{addrs: addrs, dial: dial}
	acf := &addrConnFixed{addrs: addrs, dial: dial}
	go ac.resetTransport()
	go acf.resetTransport()
	return func() {
		ac.tearDown()
		acf.tearDown()
	}
}
