package chancycle

import "sync"

// A connection pool hands a released connection to a waiting request. Each
// request's channel is made with room for the one connection it will get,
// so handing it over under the pool's lock never waits (database/sql's
// connRequests).

type connRequest struct{ cn *poolConn }

// A requestSet keeps the waiting requests in arrival order.
type requestSet struct{ reqs []pendingRequest }

type pendingRequest struct {
	req   chan connRequest
	since int64
}

func (s *requestSet) add(req chan connRequest, now int64) {
	s.reqs = append(s.reqs, pendingRequest{req: req, since: now})
}

func (s *requestSet) takeOldest() (chan connRequest, bool) {
	if len(s.reqs) == 0 {
		return nil, false
	}
	r := s.reqs[0]
	s.reqs = s.reqs[1:]
	return r.req, true
}

type requestPool struct {
	mu       sync.Mutex
	idle     []*poolConn
	requests requestSet
	now      int64
}

// get returns an idle connection, or waits for one released.
func (p *requestPool) get() *poolConn {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		cn := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return cn
	}
	req := make(chan connRequest, 1)
	p.now++
	p.requests.add(req, p.now)
	p.mu.Unlock()
	return (<-req).cn
}

// put hands cn to the oldest request, or keeps it idle.
func (p *requestPool) put(cn *poolConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if req, ok := p.requests.takeOldest(); ok {
		req <- connRequest{cn: cn}
		return
	}
	p.idle = append(p.idle, cn)
}

// A lease pool does the same with channels made without room: the handing
// over waits, under the lock, for the requester to receive.

type leaseRequest struct{ cn *poolConn }

type leasePool struct {
	mu       sync.Mutex
	idle     []*poolConn
	requests []chan leaseRequest
}

func (p *leasePool) get() *poolConn {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		cn := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return cn
	}
	req := make(chan leaseRequest)
	p.requests = append(p.requests, req)
	p.mu.Unlock()
	return (<-req).cn
}

func (p *leasePool) put(cn *poolConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.requests) > 0 {
		req := p.requests[0]
		p.requests = p.requests[1:]
		req <- leaseRequest{cn: cn} // want `p.mu held across channel send \(locked at requests.go:\d+, released by defer\)`
		return
	}
	p.idle = append(p.idle, cn)
}
