package precision

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
)

// A pooled query connection registers what to do if the query's context
// ends while the query runs with context.AfterFunc, which runs that func
// on a goroutine of its own, and waits for it when stop reports it has
// started. A func that only marks the connection interrupted is done at
// once; one that sends a kill over the network is a wait on the peer.

type queryConn struct {
	mu          sync.Mutex
	interrupted atomic.Bool
	killConn    net.Conn
	queries     int
}

// Interruptible runs the query, marking the connection if ctx ends
// first. Not a finding.
func (c *queryConn) Interruptible(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queries++
	var wg sync.WaitGroup
	wg.Add(1)
	stop := context.AfterFunc(ctx, func() {
		defer wg.Done()
		c.interrupted.Store(true)
	})
	if !stop() {
		wg.Wait()
	}
}

// Killable sends a kill for the query over the admin connection if ctx
// ends first, and waits for the kill with the lock held.
func (c *queryConn) Killable(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queries++
	var wg sync.WaitGroup
	wg.Add(1)
	stop := context.AfterFunc(ctx, func() {
		defer wg.Done()
		_, _ = c.killConn.Write([]byte("KILL QUERY"))
	})
	if !stop() {
		wg.Wait() // want `c.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at afterfuncs.go:\d+, released by defer\)`
	}
}

// DrainOnCancel waits, with the lock held, for a func that runs only once
// ctx ends: the wait lasts until the caller's context is cancelled, not
// one short step.
func (c *queryConn) DrainOnCancel(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queries++
	var wg sync.WaitGroup
	wg.Add(1)
	context.AfterFunc(ctx, func() {
		defer wg.Done()
		c.interrupted.Store(true)
	})
	wg.Wait() // want `c.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at afterfuncs.go:\d+, released by defer\)`
}
