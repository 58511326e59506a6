// Package grpc_resolver_closewait is modelled on grpc-go's resolver
// wrapper shutdown (ccResolverWrapper and its watcher goroutine; from
// memory, the issue number is not recalled): ClientConn.Close holds cc.mu,
// marks the connection closed and closes the resolver wrapper, which stops
// the DNS watcher and waits for the wrapper's watch goroutine to exit. That
// goroutine may have just received an address update and be handing it to
// the ClientConn, which takes cc.mu: Close waits for the goroutine, the
// goroutine waits for cc.mu.
package grpc_resolver_closewait

import "sync"

// Address is a resolved backend address.
type Address struct{ Addr string }

// dnsWatcher produces address updates until it is closed.
type dnsWatcher struct {
	updates chan []Address
	quit    chan struct{}
	once    sync.Once
}

func newDNSWatcher() *dnsWatcher {
	return &dnsWatcher{updates: make(chan []Address), quit: make(chan struct{})}
}

// Next blocks until the next update or until the watcher is closed.
func (w *dnsWatcher) Next() ([]Address, bool) {
	select {
	case addrs := <-w.updates:
		return addrs, true
	case <-w.quit:
		return nil, false
	}
}

func (w *dnsWatcher) Close() { w.once.Do(func() { close(w.quit) }) }

type ccResolverWrapper struct {
	cc      *ClientConn
	watcher *dnsWatcher
	done    chan struct{}
}

func (ccr *ccResolverWrapper) watch() {
	defer close(ccr.done)
	for {
		addrs, ok := ccr.watcher.Next()
		if !ok {
			return
		}
		ccr.cc.handleResolvedAddrs(addrs)
	}
}

func (ccr *ccResolverWrapper) close() {
	ccr.watcher.Close()
	<-ccr.done
}

// ClientConn is a client connection. Buggy version.
type ClientConn struct {
	mu     sync.Mutex
	addrs  []Address
	closed bool
	rw     *ccResolverWrapper
}

// Dial starts resolving with w.
func Dial(w *dnsWatcher) *ClientConn {
	cc := &ClientConn{}
	cc.rw = &ccResolverWrapper{cc: cc, watcher: w, done: make(chan struct{})}
	go cc.rw.watch()
	return cc
}

func (cc *ClientConn) handleResolvedAddrs(addrs []Address) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.closed {
		return
	}
	cc.addrs = addrs
}

// Close tears the connection down.
func (cc *ClientConn) Close() {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.closed {
		return
	}
	cc.closed = true
	cc.rw.close() // BUG: waits for watch, which may be waiting for cc.mu
}

// ---- fixed twin: Close releases cc.mu before waiting for the watcher ----

type ccResolverWrapperFixed struct {
	cc      *ClientConnFixed
	watcher *dnsWatcher
	done    chan struct{}
}

func (ccr *ccResolverWrapperFixed) watch() {
	defer close(ccr.done)
	for {
		addrs, ok := ccr.watcher.Next()
		if !ok {
			return
		}
		ccr.cc.handleResolvedAddrs(addrs)
	}
}

func (ccr *ccResolverWrapperFixed) close() {
	ccr.watcher.Close()
	<-ccr.done
}

// ClientConnFixed is the fixed version.
type ClientConnFixed struct {
	mu     sync.Mutex
	addrs  []Address
	closed bool
	rw     *ccResolverWrapperFixed
}

// DialFixed starts resolving with w.
func DialFixed(w *dnsWatcher) *ClientConnFixed {
	cc := &ClientConnFixed{}
	cc.rw = &ccResolverWrapperFixed{cc: cc, watcher: w, done: make(chan struct{})}
	go cc.rw.watch()
	return cc
}

func (cc *ClientConnFixed) handleResolvedAddrs(addrs []Address) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.closed {
		return
	}
	cc.addrs = addrs
}

// Close tears the connection down.
func (cc *ClientConnFixed) Close() {
	cc.mu.Lock()
	if cc.closed {
		cc.mu.Unlock()
		return
	}
	cc.closed = true
	rw := cc.rw
	cc.mu.Unlock()
	rw.close()
}
