// Package moby_udpproxy_conntrack models moby/moby#7559 (GoKer moby_7559;
// from memory): docker-proxy's UDP proxy loop locks the connection-tracking
// table for each datagram and, when it cannot open a socket to the backend
// for a new client, logs and `continue`s without unlocking. The next datagram
// locks the table again: the proxy goroutine deadlocks, and the reply loops
// that remove idle entries block with it.
package moby_udpproxy_conntrack

import (
	"errors"
	"log"
	"sync"
)

type datagram struct {
	from    string
	payload []byte
}

type backendConn struct {
	client string
	sent   [][]byte
}

func (c *backendConn) Write(b []byte) (int, error) {
	c.sent = append(c.sent, append([]byte(nil), b...))
	return len(b), nil
}

type socketBudget struct {
	mu   sync.Mutex
	free int
}

func (s *socketBudget) dial(client string) (*backendConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free == 0 {
		return nil, errors.New("socket: too many open files")
	}
	s.free--
	return &backendConn{client: client}, nil
}

// UDPProxy forwards datagrams to one backend. Buggy version.
type UDPProxy struct {
	inbound        chan datagram
	sockets        *socketBudget
	connTrackLock  sync.Mutex
	connTrackTable map[string]*backendConn
}

// NewUDPProxy returns a proxy that may open up to sockets backend sockets.
func NewUDPProxy(sockets int) *UDPProxy {
	return &UDPProxy{inbound: make(chan datagram), sockets: &socketBudget{free: sockets}, connTrackTable: map[string]*backendConn{}}
}

// Run forwards datagrams until inbound is closed.
func (proxy *UDPProxy) Run() {
	for dg := range proxy.inbound {
		proxy.connTrackLock.Lock()
		conn, hit := proxy.connTrackTable[dg.from]
		if !hit {
			var err error
			conn, err = proxy.sockets.dial(dg.from)
			if err != nil {
				log.Printf("Can't proxy a datagram to udp: %s", err)
				continue // BUG: connTrackLock stays locked
			}
			proxy.connTrackTable[dg.from] = conn
		}
		proxy.connTrackLock.Unlock()
		conn.Write(dg.payload)
	}
}

// Expire drops a client's entry after its reply loop times out.
func (proxy *UDPProxy) Expire(client string) {
	proxy.connTrackLock.Lock()
	delete(proxy.connTrackTable, client)
	proxy.connTrackLock.Unlock()
}

// UDPProxyFixed is the fixed version.
type UDPProxyFixed struct {
	inbound        chan datagram
	sockets        *socketBudget
	connTrackLock  sync.Mutex
	connTrackTable map[string]*backendConn
}

// NewUDPProxyFixed returns a proxy that may open up to sockets backend sockets.
func NewUDPProxyFixed(sockets int) *UDPProxyFixed {
	return &UDPProxyFixed{inbound: make(chan datagram), sockets: &socketBudget{free: sockets}, connTrackTable: map[string]*backendConn{}}
}

// Run forwards datagrams until inbound is closed.
func (proxy *UDPProxyFixed) Run() {
	for dg := range proxy.inbound {
		proxy.connTrackLock.Lock()
		conn, hit := proxy.connTrackTable[dg.from]
		if !hit {
			var err error
			conn, err = proxy.sockets.dial(dg.from)
			if err != nil {
				log.Printf("Can't proxy a datagram to udp: %s", err)
				proxy.connTrackLock.Unlock()
				continue
			}
			proxy.connTrackTable[dg.from] = conn
		}
		proxy.connTrackLock.Unlock()
		conn.Write(dg.payload)
	}
}

// Expire drops a client's entry after its reply loop times out.
func (proxy *UDPProxyFixed) Expire(client string) {
	proxy.connTrackLock.Lock()
	delete(proxy.connTrackTable, client)
	proxy.connTrackLock.Unlock()
}
