// Package singleflight is a minimal stand-in for
// golang.org/x/sync/singleflight, enough for the heldcall tests to
// type-check.
package singleflight

import "sync"

type call struct {
	wg  sync.WaitGroup
	val any
	err error
}

// Group deduplicates concurrent calls with the same key.
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// Do runs fn once per key at a time; duplicate callers wait for the first.
func (g *Group) Do(key string, fn func() (any, error)) (v any, err error, shared bool) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*call)
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val, c.err, true
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	c.val, c.err = fn()
	c.wg.Done()

	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	return c.val, c.err, false
}
