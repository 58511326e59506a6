package precision

import "sync"

// A connection hands an error to its outstanding calls when it fails; a
// plain close leaves the calls map nil and ranges over nothing.

type callResult struct{ err error }

type pendingCall struct {
	resp    chan callResult
	timeout chan struct{}
}

type dbConn struct {
	mu     sync.Mutex
	closed bool
	calls  map[int]*pendingCall
}

func (c *dbConn) closeWithError(err error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	var toClose map[int]*pendingCall
	if err != nil {
		toClose = c.calls
		c.calls = nil
	}
	c.mu.Unlock()
	for _, call := range toClose {
		select {
		case call.resp <- callResult{err: err}:
		case <-call.timeout:
		}
	}
}

func (c *dbConn) Close() { c.closeWithError(nil) }

func (c *dbConn) Fail(err error) { c.closeWithError(err) }

type dbPool struct {
	mu     sync.Mutex
	conns  map[string]*dbConn
	closed int
}

// Drain closes the pool's connections under its lock: a plain close
// delivers nothing. Not a finding.
func (p *dbPool) Drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for addr, c := range p.conns {
		c.Close()
		delete(p.conns, addr)
		p.closed++
	}
}

// Abort fails them: each waits to hand the error to its calls.
func (p *dbPool) Abort(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for addr, c := range p.conns {
		c.Fail(err) // want `p.mu held across call of \(\*dbConn\).Fail, which blocks: \(\*dbConn\).Fail -> \(\*dbConn\).closeWithError -> select \(locked at nilrange.go:\d+, released by defer\)$`
		delete(p.conns, addr)
		p.closed++
	}
}
