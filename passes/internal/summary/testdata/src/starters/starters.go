// Package starters holds starters, which run a func they are handed on a
// goroutine of its own, and functions that are not.
package starters

import "sync"

// Group tracks the goroutines it started.
type Group struct{ wg sync.WaitGroup }

// Start runs f on a new goroutine, from a func literal.
func (g *Group) Start(f func()) { // want Start:`lockfacts\(starts param 1\)`
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// StartWithChannel runs f(stop) on a new goroutine through Start.
func (g *Group) StartWithChannel(stop <-chan struct{}, f func(stop <-chan struct{})) { // want StartWithChannel:`lockfacts\(starts param 2\)`
	g.Start(func() { f(stop) })
}

// Go runs f on a new goroutine with a go statement of its own.
func Go(f func()) { // want Go:`lockfacts\(starts param 0\)`
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

// GoWhenReady waits for ready on the new goroutine before it runs f: no
// starter, f may never run.
func GoWhenReady(ready <-chan struct{}, f func()) {
	go func() {
		<-ready
		f()
	}()
}

// GoBounded takes a slot of sem first: no starter, with every slot taken
// f waits.
func GoBounded(sem chan struct{}, f func()) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		f()
	}()
}

// GoUnlessClosed may return before f runs: a starter of closed, which
// its goroutine calls at once, not of f.
func (g *Group) GoUnlessClosed(closed func() bool, f func()) { // want GoUnlessClosed:`lockfacts\(starts param 1\)`
	go func() {
		if closed() {
			return
		}
		f()
	}()
}

// GoResettable runs whatever run holds, which reset, another closure, can
// change: no starter.
func GoResettable(f func()) (reset func()) {
	run := f
	reset = func() { run = func() {} }
	go func() { run() }()
	return reset
}
