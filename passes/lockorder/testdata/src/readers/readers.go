// Package readers holds recursive read locks of two route tables. The
// frozen table is filled before it is shared and only ever read-locked
// afterwards, so no writer can queue between its two read locks; the live
// table is also written, and its recursive read lock deadlocks.
package readers

import "sync"

// FrozenRoutes is built once by NewFrozenRoutes and never written again.
type FrozenRoutes struct {
	mu     sync.RWMutex
	routes map[string]string
}

// NewFrozenRoutes copies the routes into a new table.
func NewFrozenRoutes(routes map[string]string) *FrozenRoutes {
	t := &FrozenRoutes{routes: map[string]string{}}
	for path, backend := range routes {
		t.routes[path] = backend
	}
	return t
}

// Backend read-locks.
func (t *FrozenRoutes) Backend(path string) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.routes[path]
}

// Backends read-locks and calls Backend, which read-locks again: harmless,
// since nothing ever takes t.mu for writing.
func (t *FrozenRoutes) Backends(paths []string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for _, p := range paths {
		out = append(out, t.Backend(p))
	}
	return out
}

// LiveRoutes is updated while it serves lookups.
type LiveRoutes struct {
	mu     sync.RWMutex
	routes map[string]string
}

// Set writes a route.
func (t *LiveRoutes) Set(path, backend string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.routes[path] = backend
}

// Backend read-locks.
func (t *LiveRoutes) Backend(path string) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.routes[path]
}

// Backends read-locks and calls Backend: a Set queued between the two read
// locks blocks the second, and the first is never released.
func (t *LiveRoutes) Backends(paths []string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for _, p := range paths {
		out = append(out, t.Backend(p)) // want `t.mu read-locked again through call of \(\*LiveRoutes\).Backend while held \(locked at readers.go:66\)`
	}
	return out
}

// SharedRoutes is only read-locked here, but hands its lock out as a
// Locker, so a writer may take it elsewhere.
type SharedRoutes struct {
	mu     sync.RWMutex
	routes map[string]string
}

// Locker exposes the table's lock.
func (t *SharedRoutes) Locker() sync.Locker { return &t.mu }

// Backend read-locks.
func (t *SharedRoutes) Backend(path string) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.routes[path]
}

// Backends read-locks twice, and a writer may queue in between.
func (t *SharedRoutes) Backends(paths []string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for _, p := range paths {
		out = append(out, t.Backend(p)) // want `t.mu read-locked again through call of \(\*SharedRoutes\).Backend while held \(locked at readers.go:94\)`
	}
	return out
}
