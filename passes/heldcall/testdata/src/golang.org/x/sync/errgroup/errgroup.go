// Package errgroup is a minimal stand-in for golang.org/x/sync/errgroup,
// enough for the heldcall tests to type-check.
package errgroup

import (
	"context"
	"sync"
)

// A Group is a collection of goroutines working on one task.
type Group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
	cancel  context.CancelFunc
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

// WithContext returns a new Group and a context derived from ctx, which
// is cancelled when a function passed to Go fails or Wait returns.
func WithContext(ctx context.Context) (*Group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &Group{cancel: cancel}, ctx
}

// TryGo calls f in a new goroutine and reports true (the stand-in has no
// limit).
func (g *Group) TryGo(f func() error) bool {
	g.Go(f)
	return true
}

// Wait blocks until all function calls from Go have returned.
func (g *Group) Wait() error {
	g.wg.Wait()
	if g.cancel != nil {
		g.cancel()
	}
	return g.err
}
