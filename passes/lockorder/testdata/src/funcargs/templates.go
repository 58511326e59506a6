// Package funcargs holds locks taken by func values handed to a callee
// that calls them: a one-time load run by sync.Once.Do, a predicate given
// to a filter helper, a visitor given to an iteration helper. The call
// takes what the func value takes. Each deadlock is next to its correct
// twin.
package funcargs

import "sync"

// Templates parses a site's templates on first use.
type Templates struct {
	mu      sync.Mutex
	once    sync.Once
	sources map[string]string
	parsed  map[string]string
}

// NewTemplates returns a set over sources.
func NewTemplates(sources map[string]string) *Templates {
	return &Templates{sources: sources, parsed: map[string]string{}}
}

func (t *Templates) add(name, src string) {
	t.mu.Lock()
	t.parsed[name] = src
	t.mu.Unlock()
}

func (t *Templates) loadAll() {
	for name, src := range t.sources {
		t.add(name, src)
	}
}

// LookupHeld loads the set with t.mu held: loadAll's add locks t.mu
// again, and the first lookup hangs.
func (t *Templates) LookupHeld(name string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.once.Do(t.loadAll) // want `t.mu locked again through call of sync.\(\*Once\).Do while held \(locked at templates.go:38\)`
	return t.parsed[name]
}

// LookupClosureHeld does the same through a closure.
func (t *Templates) LookupClosureHeld(name string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.once.Do(func() { t.loadAll() }) // want `t.mu locked again through call of sync.\(\*Once\).Do while held \(locked at templates.go:46\)`
	return t.parsed[name]
}

// Lookup is their twin: the set is loaded before t.mu is taken.
func (t *Templates) Lookup(name string) string {
	t.once.Do(t.loadAll)
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.parsed[name]
}

// ensureLoaded hides the one-time load behind a helper.
func (t *Templates) ensureLoaded() { t.once.Do(t.loadAll) }

// NamesHeld calls the helper with t.mu held.
func (t *Templates) NamesHeld() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ensureLoaded() // want `t.mu locked again through call of \(\*Templates\).ensureLoaded while held \(locked at templates.go:65\)`
	var out []string
	for name := range t.parsed {
		out = append(out, name)
	}
	return out
}

// Names is its twin.
func (t *Templates) Names() []string {
	t.ensureLoaded()
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for name := range t.parsed {
		out = append(out, name)
	}
	return out
}
