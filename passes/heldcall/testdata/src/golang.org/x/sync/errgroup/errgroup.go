// Package errgroup is a minimal stand-in for golang.org/x/sync/errgroup,
// enough for the heldcall tests to type-check.
package errgroup

import "sync"

// A Group is a collection of goroutines working on one task.
type Group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

// Go calls f in a new goroutine.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err })
		}
	}()
}

// Wait blocks until all function calls from Go have returned.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}
