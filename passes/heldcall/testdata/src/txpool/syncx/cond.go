// Package syncx has a condition variable whose waits a context can
// cancel, which sync.Cond's cannot.
package syncx

import (
	"context"
	"sync"
)

// Cond is a condition variable on L. Wait releases L while it waits, as
// sync.Cond's does.
type Cond struct {
	L sync.Locker

	mu      sync.Mutex // guards waiters
	waiters []chan struct{}
}

// NewCond returns a Cond on l.
func NewCond(l sync.Locker) *Cond {
	return &Cond{L: l}
}

// Wait releases c.L, waits for a Broadcast or for ctx to end, and takes
// c.L again before it returns.
func (c *Cond) Wait(ctx context.Context) error {
	ch := make(chan struct{})
	c.mu.Lock()
	c.waiters = append(c.waiters, ch)
	c.mu.Unlock()

	c.L.Unlock()
	defer c.L.Lock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Broadcast wakes every waiter.
func (c *Cond) Broadcast() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.waiters {
		close(ch)
	}
	c.waiters = nil
}

// Gate is made on a Locker too, which Open takes, but its Wait does not
// release the Locker: a caller that holds it waits with it held.
type Gate struct {
	L      sync.Locker
	open   chan struct{}
	opened bool
}

// NewGate returns a closed gate on l.
func NewGate(l sync.Locker) *Gate {
	return &Gate{L: l, open: make(chan struct{})}
}

// Wait waits until the gate opens.
func (g *Gate) Wait() {
	<-g.open
}

// Open opens the gate, once.
func (g *Gate) Open() {
	g.L.Lock()
	defer g.L.Unlock()
	if !g.opened {
		g.opened = true
		close(g.open)
	}
}

// AckCond is a Cond whose Wait, once woken, takes L back and then waits
// for the waker's acknowledgement with L held.
type AckCond struct {
	L    sync.Locker
	wake chan struct{}
	acks chan struct{}
}

// NewAckCond returns an AckCond on l.
func NewAckCond(l sync.Locker) *AckCond {
	return &AckCond{L: l, wake: make(chan struct{}), acks: make(chan struct{})}
}

// Wait releases c.L until woken, then waits for the acknowledgement
// holding it.
func (c *AckCond) Wait() {
	c.L.Unlock()
	<-c.wake
	c.L.Lock()
	<-c.acks // want `c.L held across channel receive`
}

// Wake wakes one waiter and acknowledges it.
func (c *AckCond) Wake() {
	c.wake <- struct{}{}
	c.acks <- struct{}{}
}
