// Models grpc-go#1353 (GoKer grpc_1353): roundRobin.watchAddrUpdates holds rr.mu while it sends the new address list on the unbuffered addrCh; the ClientConn's lbWatcher, still handling the previous list, tears down an addrConn whose down func (the closure returned by Balancer.Up) calls rr.down, which needs rr.mu (lock held across a send; the receiver reaches the lock through a stored closure).
package grpc_rr_addrch

import (
	"errors"
	"sync"
)

var errConnDrain = errors.New("grpc: the connection is drained")

// Address is a backend address.
type Address struct{ Addr string }

// Balancer picks backends.
type Balancer interface {
	Start(updates <-chan []string)
	Up(addr Address) (down func(error))
	Notify() <-chan []Address
	Close()
}

type addrInfo struct {
	addr      Address
	connected bool
}

// roundRobin is the balancer. Buggy version.
type roundRobin struct {
	mu     sync.Mutex
	addrs  []*addrInfo
	addrCh chan []Address
	done   bool
}

func (rr *roundRobin) Start(updates <-chan []string) {
	rr.addrCh = make(chan []Address)
	go func() {
		for up := range updates {
			rr.watchAddrUpdates(up)
		}
	}()
}

func (rr *roundRobin) watchAddrUpdates(update []string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.addrs = rr.addrs[:0]
	var open []Address
	for _, a := range update {
		rr.addrs = append(rr.addrs, &addrInfo{addr: Address{a}})
		open = append(open, Address{a})
	}
	if rr.done {
		return
	}
	rr.addrCh <- open // BUG: blocks under rr.mu while lbWatcher waits for rr.mu in down
}

func (rr *roundRobin) Up(addr Address) func(error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, a := range rr.addrs {
		if a.addr == addr {
			a.connected = true
		}
	}
	return func(err error) { rr.down(addr, err) }
}

func (rr *roundRobin) down(addr Address, err error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, a := range rr.addrs {
		if a.addr == addr {
			a.connected = false
		}
	}
}

func (rr *roundRobin) Notify() <-chan []Address { return rr.addrCh }

func (rr *roundRobin) Close() {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.done = true
	if rr.addrCh != nil {
		close(rr.addrCh)
	}
}

type addrConn struct {
	mu   sync.Mutex
	addr Address
	down func(error)
}

func (ac *addrConn) tearDown(err error) {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	if ac.down != nil {
		ac.down(err)
		ac.down = nil
	}
}

// ClientConn keeps one addrConn per backend.
type ClientConn struct {
	mu       sync.Mutex
	balancer Balancer
	conns    map[Address]*addrConn
}

func (cc *ClientConn) lbWatcher() {
	for addrs := range cc.balancer.Notify() {
		keep := map[Address]bool{}
		for _, a := range addrs {
			keep[a] = true
		}
		var del []*addrConn
		cc.mu.Lock()
		for a, ac := range cc.conns {
			if !keep[a] {
				del = append(del, ac)
				delete(cc.conns, a)
			}
		}
		for a := range keep {
			if _, ok := cc.conns[a]; !ok {
				cc.conns[a] = &addrConn{addr: a, down: cc.balancer.Up(a)}
			}
		}
		cc.mu.Unlock()
		for _, ac := range del {
			ac.tearDown(errConnDrain)
		}
	}
}

// Dial starts the balancer and the watcher.
func Dial(b Balancer, updates <-chan []string) *ClientConn {
	cc := &ClientConn{balancer: b, conns: map[Address]*addrConn{}}
	b.Start(updates)
	go cc.lbWatcher()
	return cc
}

// NewRoundRobin returns the buggy balancer.
func NewRoundRobin() Balancer { return &roundRobin{} }

// roundRobinFixed is the fixed version (as grpc-go did): addrCh has a
// buffer of one and watchAddrUpdates drains the stale value before sending,
// so the send never blocks under rr.mu.
type roundRobinFixed struct {
	mu     sync.Mutex
	addrs  []*addrInfo
	addrCh chan []Address
	done   bool
}

func (rr *roundRobinFixed) Start(updates <-chan []string) {
	rr.addrCh = make(chan []Address, 1)
	go func() {
		for up := range updates {
			rr.watchAddrUpdates(up)
		}
	}()
}

func (rr *roundRobinFixed) watchAddrUpdates(update []string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.addrs = rr.addrs[:0]
	var open []Address
	for _, a := range update {
		rr.addrs = append(rr.addrs, &addrInfo{addr: Address{a}})
		open = append(open, Address{a})
	}
	if rr.done {
		return
	}
	select {
	case <-rr.addrCh:
	default:
	}
	rr.addrCh <- open
}

func (rr *roundRobinFixed) Up(addr Address) func(error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, a := range rr.addrs {
		if a.addr == addr {
			a.connected = true
		}
	}
	return func(err error) { rr.down(addr, err) }
}

func (rr *roundRobinFixed) down(addr Address, err error) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, a := range rr.addrs {
		if a.addr == addr {
			a.connected = false
		}
	}
}

func (rr *roundRobinFixed) Notify() <-chan []Address { return rr.addrCh }

func (rr *roundRobinFixed) Close() {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.done = true
	if rr.addrCh != nil {
		close(rr.addrCh)
	}
}

// NewRoundRobinFixed returns the fixed balancer.
func NewRoundRobinFixed() Balancer { return &roundRobinFixed{} }
