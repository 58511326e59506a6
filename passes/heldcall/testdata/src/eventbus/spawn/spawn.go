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

// Fallbacks start one func and keep another to run by hand.
type Fallbacks struct {
	fallback func(stop <-chan struct{})
	stop     <-chan struct{}
}

// StartOr runs f(stop) on a new goroutine and keeps fallback for
// RunFallback: a starter of f, not of fallback.
func (g *Fallbacks) StartOr(stop <-chan struct{}, f, fallback func(stop <-chan struct{})) {
	g.fallback, g.stop = fallback, stop
	go f(stop)
}

// RunFallback runs the fallback on the caller's goroutine.
func (g *Fallbacks) RunFallback() { g.fallback(g.stop) }
