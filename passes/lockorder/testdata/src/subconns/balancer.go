// want package:"3 lock-order edges"

// Package subconns holds a balancer whose sub-connections report their
// state back to it, taking the balancer's lock under their own, and a test
// that inspects them in the other order; and a pool whose own code takes
// both orders.
package subconns

import "sync"

// Balancer counts its ready sub-connections.
type Balancer struct {
	mu    sync.Mutex
	subs  []*SubConn
	ready int
}

// SubConn is one connection of a Balancer.
type SubConn struct {
	mu    sync.Mutex
	b     *Balancer
	state int
}

// NewSubConn adds a sub-connection to b.
func (b *Balancer) NewSubConn() *SubConn {
	sc := &SubConn{b: b}
	b.mu.Lock()
	b.subs = append(b.subs, sc)
	b.mu.Unlock()
	return sc
}

// UpdateState records a state change and tells the balancer. The package
// always takes the sub-connection's lock first; only its test inverts it,
// so the cycle is reported there, where the fix goes, and not here.
func (sc *SubConn) UpdateState(ready bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if ready {
		sc.state = 1
	} else {
		sc.state = 0
	}
	sc.b.mu.Lock() // the package's order: the test's inversion is reported in the test
	if ready {
		sc.b.ready++
	}
	sc.b.mu.Unlock()
}

// Pool closes its members under its own lock, while a member reports to
// the pool under the member's lock: the package itself takes both orders.
type Pool struct {
	mu      sync.Mutex
	members []*Member
	active  int
}

// Member is one connection of a Pool.
type Member struct {
	mu     sync.Mutex
	pool   *Pool
	closed bool
}

// Done tells the pool that m went idle.
func (m *Member) Done() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pool.mu.Lock() // want `m.pool.mu locked while holding m.mu \(locked at balancer.go:69\); the opposite order is taken at balancer.go:81: lock-order inversion`
	m.pool.active--
	m.pool.mu.Unlock()
}

// Close closes every member with the pool locked.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.members {
		m.mu.Lock() // want `p.members\[i\].mu locked while holding p.mu \(locked at balancer.go:78\); the opposite order is taken at balancer.go:71: lock-order inversion`
		m.closed = true
		m.mu.Unlock()
	}
}
