// Package starters holds starters, which run a func they are handed on a
// goroutine of its own, and functions that are not.
package starters

import "sync"

// Group tracks the goroutines it started.
type Group struct{ wg sync.WaitGroup }

// Start runs f on a new goroutine, from a func literal.
func (g *Group) Start(f func()) { // want Start:`lockfacts\(starts params\)`
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// StartWithChannel runs f(stop) on a new goroutine through Start.
func (g *Group) StartWithChannel(stop <-chan struct{}, f func(stop <-chan struct{})) { // want StartWithChannel:`lockfacts\(starts params\)`
	g.Start(func() { f(stop) })
}

// Go runs f on a new goroutine with a go statement of its own.
func Go(f func()) { // want Go:`lockfacts\(starts params\)`
	go f()
}

// Run runs f on the caller's goroutine: no starter.
func Run(f func()) { // want Run:`lockfacts\(calls params\)`
	f()
}

// StartLater runs whatever fn holds when the goroutine starts, which may
// not be the func it was handed: no starter.
func StartLater(fn func(), other func()) {
	go func() { fn() }()
	fn = other
}
