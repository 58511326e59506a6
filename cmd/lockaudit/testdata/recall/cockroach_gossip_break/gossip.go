// Models cockroach#584 (GoKer cockroach_584): the bootstrap worker closure run by the stopper locks g.mu at the top of its loop and breaks out on g.closed without unlocking, so the lock leaks into the worker's exit (lock leak via break in a closure run by a helper).
package cockroach_gossip_break

import (
	"sync"
	"time"
)

// Stopper runs workers and tells them when to stop.
type Stopper struct {
	wg     sync.WaitGroup
	stopCh chan struct{}
}

// RunWorker runs f in a goroutine tracked by s.
func (s *Stopper) RunWorker(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// ShouldStop is closed when the stopper stops.
func (s *Stopper) ShouldStop() <-chan struct{} { return s.stopCh }

// Gossip spreads cluster info. Buggy version.
type Gossip struct {
	mu        sync.Mutex
	closed    bool
	bootstrap []string
	connected map[string]bool
	stalled   chan struct{}
	stopper   *Stopper
}

func (g *Gossip) connect(addr string) { g.connected[addr] = true }

// startBootstrap keeps connecting to bootstrap hosts while gossip is stalled.
func (g *Gossip) startBootstrap() {
	g.stopper.RunWorker(func() {
		for {
			g.mu.Lock()
			if g.closed {
				break // BUG: leaves g.mu locked
			}
			for _, addr := range g.bootstrap {
				if !g.connected[addr] {
					g.connect(addr)
					break
				}
			}
			g.mu.Unlock()

			select {
			case <-g.stalled:
			case <-time.After(time.Second):
			case <-g.stopper.ShouldStop():
				return
			}
		}
	})
}

// Close marks gossip closed.
func (g *Gossip) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// GossipFixed is the fixed version: it unlocks before breaking out.
type GossipFixed struct {
	mu        sync.Mutex
	closed    bool
	bootstrap []string
	connected map[string]bool
	stalled   chan struct{}
	stopper   *Stopper
}

func (g *GossipFixed) connect(addr string) { g.connected[addr] = true }

// startBootstrap keeps connecting to bootstrap hosts while gossip is stalled.
func (g *GossipFixed) startBootstrap() {
	g.stopper.RunWorker(func() {
		for {
			g.mu.Lock()
			if g.closed {
				g.mu.Unlock()
				break
			}
			for _, addr := range g.bootstrap {
				if !g.connected[addr] {
					g.connect(addr)
					break
				}
			}
			g.mu.Unlock()

			select {
			case <-g.stalled:
			case <-time.After(time.Second):
			case <-g.stopper.ShouldStop():
				return
			}
		}
	})
}

// Close marks gossip closed.
func (g *GossipFixed) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
