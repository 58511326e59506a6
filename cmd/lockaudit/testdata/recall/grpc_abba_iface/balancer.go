// Package grpc_abba_iface is modelled on a grpc-go ClientConn / balancer
// wrapper lock-order inversion through interfaces: a resolver update holds
// the ClientConn's mutex and forwards the new addresses to the balancer
// through the Balancer interface (the wrapper's mutex), while the
// balancer, from its own goroutine, publishes a new picker through the
// BalancerClientConn interface under the wrapper's mutex, which takes the
// ClientConn's mutex.
package grpc_abba_iface

import "sync"

// Picker picks a sub-connection for an RPC.
type Picker interface {
	Pick(method string) (string, error)
}

// Balancer is what the ClientConn drives.
type Balancer interface {
	UpdateClientConnState(addrs []string)
}

// BalancerClientConn is what a balancer calls back into.
type BalancerClientConn interface {
	UpdateState(p Picker)
}

// ClientConn is a client channel. Buggy version.
type ClientConn struct {
	mu       sync.Mutex
	addrs    []string
	picker   Picker
	balancer Balancer
}

// NewClientConn wires a ClientConn to a balancer wrapper.
func NewClientConn() *ClientConn {
	cc := &ClientConn{}
	cc.balancer = &ccBalancerWrapper{cc: cc}
	return cc
}

// UpdateResolverState is called by the resolver with new addresses.
func (cc *ClientConn) UpdateResolverState(addrs []string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.addrs = addrs
	cc.balancer.UpdateClientConnState(addrs) // cc.mu then ccb.mu
}

func (cc *ClientConn) updatePicker(p Picker) {
	cc.mu.Lock()
	cc.picker = p
	cc.mu.Unlock()
}

// ccBalancerWrapper serialises calls into the balancer. Buggy version.
type ccBalancerWrapper struct {
	mu     sync.Mutex
	cc     *ClientConn
	addrs  []string
	picker Picker
}

func (ccb *ccBalancerWrapper) UpdateClientConnState(addrs []string) {
	ccb.mu.Lock()
	ccb.addrs = addrs
	ccb.mu.Unlock()
}

// UpdateState is called by the balancer from its own goroutine.
func (ccb *ccBalancerWrapper) UpdateState(p Picker) {
	ccb.mu.Lock()
	defer ccb.mu.Unlock()
	ccb.picker = p
	ccb.cc.updatePicker(p) // BUG: ccb.mu then cc.mu
}

// RoundRobin is a trivial picker.
type RoundRobin struct {
	mu    sync.Mutex
	addrs []string
	next  int
}

// Pick returns the next address.
func (r *RoundRobin) Pick(string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a := r.addrs[r.next%len(r.addrs)]
	r.next++
	return a, nil
}

// RunBalancer publishes a new picker for every address set the balancer sees.
func RunBalancer(bcc BalancerClientConn, updates <-chan []string) {
	for addrs := range updates {
		bcc.UpdateState(&RoundRobin{addrs: addrs})
	}
}

// BalancerOf returns cc's balancer-side ClientConn.
func BalancerOf(cc *ClientConn) BalancerClientConn {
	return cc.balancer.(*ccBalancerWrapper)
}

// ClientConnFixed is the fixed version: the wrapper releases its mutex
// before it calls into the ClientConn.
type ClientConnFixed struct {
	mu       sync.Mutex
	addrs    []string
	picker   Picker
	balancer Balancer
}

// NewClientConnFixed wires a ClientConn to a balancer wrapper.
func NewClientConnFixed() *ClientConnFixed {
	cc := &ClientConnFixed{}
	cc.balancer = &ccBalancerWrapperFixed{cc: cc}
	return cc
}

// UpdateResolverState is called by the resolver with new addresses.
func (cc *ClientConnFixed) UpdateResolverState(addrs []string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.addrs = addrs
	cc.balancer.UpdateClientConnState(addrs)
}

func (cc *ClientConnFixed) updatePicker(p Picker) {
	cc.mu.Lock()
	cc.picker = p
	cc.mu.Unlock()
}

type ccBalancerWrapperFixed struct {
	mu     sync.Mutex
	cc     *ClientConnFixed
	addrs  []string
	picker Picker
}

func (ccb *ccBalancerWrapperFixed) UpdateClientConnState(addrs []string) {
	ccb.mu.Lock()
	ccb.addrs = addrs
	ccb.mu.Unlock()
}

// UpdateState is called by the balancer from its own goroutine.
func (ccb *ccBalancerWrapperFixed) UpdateState(p Picker) {
	ccb.mu.Lock()
	ccb.picker = p
	ccb.mu.Unlock()
	ccb.cc.updatePicker(p)
}

// BalancerOfFixed returns cc's balancer-side ClientConn.
func BalancerOfFixed(cc *ClientConnFixed) BalancerClientConn {
	return cc.balancer.(*ccBalancerWrapperFixed)
}
