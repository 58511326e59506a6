// Package etcd_balancer_updateaddrs is modelled on etcd clientv3's
// simpleBalancer (v3.2 era; from memory, the issue number is not recalled;
// upstream sends on updateAddrsC after releasing b.mu): updateAddrs, called
// by the client's endpoint sync, replaces the address list under the
// balancer's mutex and, still holding it, hands the change to the notify
// loop over the unbuffered updateAddrsC (a select that also watches stopc).
// The notify loop read-locks the balancer at the top of every iteration to
// read the pinned address before it selects on updateAddrsC, so an update
// that arrives while the loop is between iterations deadlocks both, and
// with them every RPC that asks the balancer for a connection.
package etcd_balancer_updateaddrs

import "sync"

type simpleBalancer struct {
	mu           sync.RWMutex
	addrs        []string
	pinAddr      string
	upc          chan struct{}
	updateAddrsC chan struct{}
	notifyCh     chan []string
	stopc        chan struct{}
	donec        chan struct{}
}

func newSimpleBalancer(eps []string) *simpleBalancer {
	b := &simpleBalancer{
		addrs:        eps,
		upc:          make(chan struct{}),
		updateAddrsC: make(chan struct{}),
		notifyCh:     make(chan []string, 1),
		stopc:        make(chan struct{}),
		donec:        make(chan struct{}),
	}
	go b.updateNotifyLoop()
	return b
}

func (b *simpleBalancer) updateAddrs(eps ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.addrs = eps
	b.pinAddr = ""
	select {
	case b.updateAddrsC <- struct{}{}: // BUG: the loop read-locks b.mu before it receives
	case <-b.stopc:
	}
}

func (b *simpleBalancer) updateNotifyLoop() {
	defer close(b.donec)
	for {
		b.mu.RLock()
		upc, pinned := b.upc, b.pinAddr
		b.mu.RUnlock()
		select {
		case <-b.stopc:
			return
		case <-upc:
			_ = pinned
		case <-b.updateAddrsC:
			b.notifyAddrs()
		}
	}
}

func (b *simpleBalancer) notifyAddrs() {
	b.mu.RLock()
	addrs := append([]string(nil), b.addrs...)
	b.mu.RUnlock()
	select {
	case b.notifyCh <- addrs:
	case <-b.stopc:
	}
}

func (b *simpleBalancer) Close() { close(b.stopc); <-b.donec }

// simpleBalancerFixed is the fixed version.
type simpleBalancerFixed struct {
	mu           sync.RWMutex
	addrs        []string
	pinAddr      string
	upc          chan struct{}
	updateAddrsC chan struct{}
	notifyCh     chan []string
	stopc        chan struct{}
	donec        chan struct{}
}

func newSimpleBalancerFixed(eps []string) *simpleBalancerFixed {
	b := &simpleBalancerFixed{
		addrs:        eps,
		upc:          make(chan struct{}),
		updateAddrsC: make(chan struct{}),
		notifyCh:     make(chan []string, 1),
		stopc:        make(chan struct{}),
		donec:        make(chan struct{}),
	}
	go b.updateNotifyLoop()
	return b
}

func (b *simpleBalancerFixed) updateAddrs(eps ...string) {
	b.mu.Lock()
	b.addrs = eps
	b.pinAddr = ""
	b.mu.Unlock()
	select {
	case b.updateAddrsC <- struct{}{}:
	case <-b.stopc:
	}
}

func (b *simpleBalancerFixed) updateNotifyLoop() {
	defer close(b.donec)
	for {
		b.mu.RLock()
		upc, pinned := b.upc, b.pinAddr
		b.mu.RUnlock()
		select {
		case <-b.stopc:
			return
		case <-upc:
			_ = pinned
		case <-b.updateAddrsC:
			b.notifyAddrs()
		}
	}
}

func (b *simpleBalancerFixed) notifyAddrs() {
	b.mu.RLock()
	addrs := append([]string(nil), b.addrs...)
	b.mu.RUnlock()
	select {
	case b.notifyCh <- addrs:
	case <-b.stopc:
	}
}

func (b *simpleBalancerFixed) Close() { close(b.stopc); <-b.donec }
