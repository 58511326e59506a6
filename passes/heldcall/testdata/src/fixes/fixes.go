// Package fixes holds findings for which heldcall offers to move the
// Unlock above the call (fixes.go.golden is the file with every fix
// applied), each next to a twin where moving it would not be safe, which
// gets the finding but no fix.
//
// The expectation of a finding that gets a fix is a /* want */ comment in
// front of the call: a trailing comment would stand between the call and
// the Unlock, which rules the fix out (see RemoveTrailingComment).
// TestSuggestedFixes checks that exactly these findings carry a fix.
package fixes

import "sync"

// Session is a logged-in user.
type Session struct {
	ID   string
	User string
}

// Registry tracks named services and announces removals.
type Registry struct {
	mu       sync.Mutex
	services map[string]string
	sessions map[string]*Session
	count    int
	onRemove func(name string)
	onDrop   func(s *Session)
	onCount  func(n int)
	onIdle   func()
}

// Remove: the hook is a local variable and its argument a string
// parameter, and the Unlock follows the call: the fix swaps them.
func (r *Registry) Remove(name string) {
	r.mu.Lock()
	delete(r.services, name)
	hook := r.onRemove
	/* want `r.mu held across call of func value hook \(locked at fixes.go:35\)` */ hook(name)
	r.mu.Unlock()
}

// Idle: no arguments at all.
func (r *Registry) Idle() {
	r.mu.Lock()
	r.services = map[string]string{}
	idle := r.onIdle
	/* want `r.mu held across call of func value idle \(locked at fixes.go:44\)` */ idle()
	r.mu.Unlock()
}

// Count: a local int computed under the lock, and a constant.
func (r *Registry) Count(step int) {
	r.mu.Lock()
	r.count += step
	n := r.count
	report := r.onCount
	/* want `r.mu held across call of func value report \(locked at fixes.go:53\)` */ report(n)
	r.mu.Unlock()
	report(0)
}

// ReportConst: a constant argument.
func (r *Registry) ReportConst() {
	r.mu.Lock()
	r.count = 0
	report := r.onCount
	/* want `r.mu held across call of func value report \(locked at fixes.go:64\)` */ report(0)
	r.mu.Unlock()
}

// DropPointer: the argument is a pointer into the guarded map; the
// callee could reach guarded state through it. No fix.
func (r *Registry) DropPointer(id string) {
	r.mu.Lock()
	s := r.sessions[id]
	delete(r.sessions, id)
	drop := r.onDrop
	drop(s) // want `r.mu held across call of func value drop \(locked at fixes.go:74\)`
	r.mu.Unlock()
}

// CountField: the argument is a field read under the lock; after the
// swap it would be read without it. No fix.
func (r *Registry) CountField(step int) {
	r.mu.Lock()
	r.count += step
	report := r.onCount
	report(r.count) // want `r.mu held across call of func value report \(locked at fixes.go:85\)`
	r.mu.Unlock()
}

// RemoveField: the function is a field of the guarded struct. No fix.
func (r *Registry) RemoveField(name string) {
	r.mu.Lock()
	delete(r.services, name)
	r.onRemove(name) // want `r.mu held across call of func value r.onRemove \(locked at fixes.go:94\)`
	r.mu.Unlock()
}

// RemoveDeferred: a defer releases the lock; there is no Unlock to move.
// No fix.
func (r *Registry) RemoveDeferred(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.services, name)
	hook := r.onRemove
	hook(name) // want `r.mu held across call of func value hook \(locked at fixes.go:103, released by defer\)`
}

// RemoveComment: a comment between the call and the Unlock may explain
// the order. No fix.
func (r *Registry) RemoveComment(name string) {
	r.mu.Lock()
	delete(r.services, name)
	hook := r.onRemove
	hook(name) // want `r.mu held across call of func value hook \(locked at fixes.go:113\)`
	// The hook must observe the removal before anyone re-registers.
	r.mu.Unlock()
}

// RemoveTrailingComment: a comment trails the call; after the swap it
// would annotate the Unlock. No fix.
func (r *Registry) RemoveTrailingComment(name string) {
	r.mu.Lock()
	delete(r.services, name)
	hook := r.onRemove
	hook(name) // the hook must observe the removal // want `r.mu held across call of func value hook \(locked at fixes.go:124\)`
	r.mu.Unlock()
}

// RemoveGap: another statement stands between the call and the Unlock.
// No fix.
func (r *Registry) RemoveGap(name string) {
	r.mu.Lock()
	hook := r.onRemove
	hook(name) // want `r.mu held across call of func value hook \(locked at fixes.go:134\)`
	delete(r.services, name)
	r.mu.Unlock()
}

// RemoveResult: the call is not a statement of its own. No fix.
func (r *Registry) RemoveResult(name string, check func(string) bool) bool {
	r.mu.Lock()
	ok := check(name) // want `r.mu held across call of func value check \(locked at fixes.go:143\)`
	r.mu.Unlock()
	return ok
}

// Federation links two registries.
type Federation struct {
	mu    sync.Mutex
	local *Registry
	peers int
}

// RemoveBoth: another lock is also held; moving one Unlock still leaves
// the call under the other. No fix.
func (f *Federation) RemoveBoth(name string) {
	f.mu.Lock()
	f.local.mu.Lock()
	delete(f.local.services, name)
	hook := f.local.onRemove
	hook(name) // want `f.local.mu held across call of func value hook \(locked at fixes.go:160\)`
	f.local.mu.Unlock()
	f.mu.Unlock()
}

// Cache is read-mostly.
type Cache struct {
	mu     sync.RWMutex
	items  map[string][]byte
	onRead func(key string)
}

// Touch: the explicit RUnlock of the only lock held follows the call: the
// fix swaps them.
func (c *Cache) Touch(key string) {
	c.mu.RLock()
	_, ok := c.items[key]
	hit := c.onRead
	if ok {
		/* want `c.mu held across call of func value hit \(locked at fixes.go:178\)` */ hit(key)
		c.mu.RUnlock()
		return
	}
	c.mu.RUnlock()
}

func (c *Cache) lock()   { c.mu.Lock() }
func (c *Cache) unlock() { c.mu.Unlock() }

// TouchWrapped: the release is a wrapper call, not an explicit Unlock.
// No fix.
func (c *Cache) TouchWrapped(key string) {
	c.lock()
	delete(c.items, key)
	hit := c.onRead
	hit(key) // want `c.mu held across call of func value hit \(locked at fixes.go:195\)`
	c.unlock()
}

// TouchInPlace: the call is in a closure invoked in place; the lock is its
// caller's. No fix.
func (c *Cache) TouchInPlace(key string) {
	c.mu.Lock()
	hit := c.onRead
	func() {
		hit(key) // want `c.mu held across call of func value hit \(locked at fixes.go:205\)`
	}()
	c.mu.Unlock()
}
