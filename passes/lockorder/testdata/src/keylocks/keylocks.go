// The package fact (its lock-order edges) is checked in handoff.go.

// Package keylocks is a registry of per-key locks: the registry's lock
// guards the map of each key's lock. Taking a key's lock while holding the
// registry's, and the registry's while holding a key's, deadlocks.
package keylocks

import "sync"

// Registry hands out one lock per key.
type Registry struct {
	mu      sync.Mutex
	locks   map[string]*sync.Mutex
	holders map[string]int
	updates int
}

// lockFor returns the key's lock, creating it, under the registry's lock.
func (r *Registry) lockFor(key string) *sync.Mutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, ok := r.locks[key]
	if !ok {
		l = &sync.Mutex{}
		r.locks[key] = l
	}
	return l
}

// AcquireHeld locks the key's lock while still holding the registry's.
func (r *Registry) AcquireHeld(key string) {
	r.mu.Lock()
	l, ok := r.locks[key]
	if !ok {
		l = &sync.Mutex{}
		r.locks[key] = l
	}
	l.Lock() // want `l locked while holding r.mu \(locked at keylocks.go:32\); the opposite order is taken at keylocks.go:64: lock-order inversion`
	r.holders[key]++
	r.mu.Unlock()
}

// Acquire is the twin of AcquireHeld: it counts the holder and releases
// the registry's lock before waiting for the key's.
func (r *Registry) Acquire(key string) {
	r.mu.Lock()
	l, ok := r.locks[key]
	if !ok {
		l = &sync.Mutex{}
		r.locks[key] = l
	}
	r.holders[key]++
	r.mu.Unlock()
	l.Lock()
}

// UpdateHeld runs fn under the key's lock and counts the update under the
// registry's lock before releasing the key's.
func (r *Registry) UpdateHeld(key string, fn func()) {
	l := r.lockFor(key)
	l.Lock()
	defer l.Unlock()
	fn()
	r.mu.Lock() // want `r.mu locked while holding l \(locked at keylocks.go:61\); the opposite order is taken at keylocks.go:38: lock-order inversion`
	r.updates++
	r.mu.Unlock()
}

// Update is the twin of UpdateHeld: it counts the update before taking
// the key's lock.
func (r *Registry) Update(key string, fn func()) {
	r.mu.Lock()
	r.updates++
	r.mu.Unlock()
	l := r.lockFor(key)
	l.Lock()
	defer l.Unlock()
	fn()
}

// MigrateHeld holds a key's lock of this registry while it takes another
// registry's lock: the classes meet in the reverse order of AcquireHeld,
// but nothing ties the other registry to this one.
func (r *Registry) MigrateHeld(key string, to *Registry) {
	l := r.lockFor(key)
	l.Lock()
	defer l.Unlock()
	to.mu.Lock() // want `to.mu locked while holding l \(locked at keylocks.go:86\); the opposite order takes l while holding r.mu at keylocks.go:38: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*keylocks.Registry\).locks\[\] and \(\*keylocks.Registry\).mu\)`
	to.holders[key]++
	to.mu.Unlock()
}

// Migrate is the twin of MigrateHeld: it releases the key's lock first.
func (r *Registry) Migrate(key string, to *Registry) {
	l := r.lockFor(key)
	l.Lock()
	r.holders[key]--
	l.Unlock()
	to.mu.Lock()
	to.holders[key]++
	to.mu.Unlock()
}
