// Package spawn starts goroutines and waits for them, as
// k8s.io/apimachinery's wait.Group does: Start and StartWithChannel are
// starters, which run the func they are handed on a goroutine of its own.
package spawn

import "sync"

// Group tracks the goroutines it started.
type Group struct{ wg sync.WaitGroup }

// Start runs f on a new goroutine.
func (g *Group) Start(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// StartWithChannel runs f(stop) on a new goroutine, through Start.
func (g *Group) StartWithChannel(stop <-chan struct{}, f func(stop <-chan struct{})) {
	g.Start(func() { f(stop) })
}

// Wait waits for every goroutine the group started.
func (g *Group) Wait() { g.wg.Wait() }

// Run runs f on the caller's goroutine, and is no starter.
func Run(f func()) { f() }
