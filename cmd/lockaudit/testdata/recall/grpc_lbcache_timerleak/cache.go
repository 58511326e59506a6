// Models grpc-go#3017 (GoKer grpc_3017): the time.AfterFunc closure that evicts a cached SubConn locks ccc.mu and returns early when the entry was revived, without unlocking; the next NewSubConn/RemoveSubConn blocks (lock leak inside a timer closure).
package grpc_lbcache_timerleak

import (
	"sync"
	"time"
)

// Address is a backend address.
type Address string

// SubConn is a connection to one backend.
type SubConn struct {
	addr Address
}

type subConnCacheEntry struct {
	sc            *SubConn
	cancel        func()
	abortDeleting bool
}

// lbCacheClientConn keeps removed SubConns for a while so they can be reused.
// Buggy version.
type lbCacheClientConn struct {
	mu            sync.Mutex
	timeout       time.Duration
	subConnCache  map[Address]*subConnCacheEntry
	subConnToAddr map[*SubConn]Address
}

func newLBCacheClientConn(timeout time.Duration) *lbCacheClientConn {
	return &lbCacheClientConn{
		timeout:       timeout,
		subConnCache:  map[Address]*subConnCacheEntry{},
		subConnToAddr: map[*SubConn]Address{},
	}
}

// NewSubConn reuses a cached SubConn for addr or makes a new one.
func (ccc *lbCacheClientConn) NewSubConn(addr Address) *SubConn {
	ccc.mu.Lock()
	defer ccc.mu.Unlock()
	if entry, ok := ccc.subConnCache[addr]; ok {
		entry.cancel()
		delete(ccc.subConnCache, addr)
		return entry.sc
	}
	sc := &SubConn{addr: addr}
	ccc.subConnToAddr[sc] = addr
	return sc
}

// RemoveSubConn caches sc and deletes it when the timeout fires.
func (ccc *lbCacheClientConn) RemoveSubConn(sc *SubConn) {
	ccc.mu.Lock()
	defer ccc.mu.Unlock()
	addr, ok := ccc.subConnToAddr[sc]
	if !ok {
		return
	}
	if _, ok := ccc.subConnCache[addr]; ok {
		return
	}
	entry := &subConnCacheEntry{sc: sc}
	ccc.subConnCache[addr] = entry
	timer := time.AfterFunc(ccc.timeout, func() {
		ccc.mu.Lock()
		if entry.abortDeleting {
			return // BUG: returns with ccc.mu held
		}
		delete(ccc.subConnToAddr, sc)
		delete(ccc.subConnCache, addr)
		ccc.mu.Unlock()
	})
	entry.cancel = func() {
		if !timer.Stop() {
			// The timer already fired and its closure is waiting for ccc.mu.
			entry.abortDeleting = true
		}
	}
}

// lbCacheClientConnFixed is the fixed version: the closure defers the unlock.
type lbCacheClientConnFixed struct {
	mu            sync.Mutex
	timeout       time.Duration
	subConnCache  map[Address]*subConnCacheEntry
	subConnToAddr map[*SubConn]Address
}

func newLBCacheClientConnFixed(timeout time.Duration) *lbCacheClientConnFixed {
	return &lbCacheClientConnFixed{
		timeout:       timeout,
		subConnCache:  map[Address]*subConnCacheEntry{},
		subConnToAddr: map[*SubConn]Address{},
	}
}

// NewSubConn reuses a cached SubConn for addr or makes a new one.
func (ccc *lbCacheClientConnFixed) NewSubConn(addr Address) *SubConn {
	ccc.mu.Lock()
	defer ccc.mu.Unlock()
	if entry, ok := ccc.subConnCache[addr]; ok {
		entry.cancel()
		delete(ccc.subConnCache, addr)
		return entry.sc
	}
	sc := &SubConn{addr: addr}
	ccc.subConnToAddr[sc] = addr
	return sc
}

// RemoveSubConn caches sc and deletes it when the timeout fires.
func (ccc *lbCacheClientConnFixed) RemoveSubConn(sc *SubConn) {
	ccc.mu.Lock()
	defer ccc.mu.Unlock()
	addr, ok := ccc.subConnToAddr[sc]
	if !ok {
		return
	}
	if _, ok := ccc.subConnCache[addr]; ok {
		return
	}
	entry := &subConnCacheEntry{sc: sc}
	ccc.subConnCache[addr] = entry
	timer := time.AfterFunc(ccc.timeout, func() {
		ccc.mu.Lock()
		defer ccc.mu.Unlock()
		if entry.abortDeleting {
			return
		}
		delete(ccc.subConnToAddr, sc)
		delete(ccc.subConnCache, addr)
	})
	entry.cancel = func() {
		if !timer.Stop() {
			entry.abortDeleting = true
		}
	}
}
