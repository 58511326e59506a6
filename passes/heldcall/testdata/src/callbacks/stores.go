package callbacks

import "sync"

// Store is what the package hands its caches to: a reflector fills it.
type Store interface {
	Replace(items map[string]string)
}

// Fill hands a store to the package's reflector.
func Fill(s Store, items map[string]string) { s.Replace(items) }

// objectCache is unexported: other packages only ever see it as a Store,
// which does not declare SetOnReplace, so only this package installs the
// hook, and its one hook only counts.
type objectCache struct {
	mu        sync.Mutex
	items     map[string]string
	onReplace func()
}

// SetOnReplace installs the hook run after each Replace.
func (c *objectCache) SetOnReplace(hook func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onReplace = hook
}

// Replace swaps the items and runs the hook under the lock.
func (c *objectCache) Replace(items map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items = items
	if c.onReplace != nil {
		c.onReplace()
	}
}

// Watcher serves from an objectCache once it has been filled.
type Watcher struct {
	ready bool
	cache *objectCache
}

// NewWatcher wires the cache's hook to mark the watcher ready.
func NewWatcher(items map[string]string) *Watcher {
	w := &Watcher{cache: &objectCache{}}
	w.cache.SetOnReplace(func() { w.ready = true })
	Fill(w.cache, items)
	return w
}

// HookStore is a store whose users install their own hook.
type HookStore interface {
	Store
	SetOnReplace(hook func())
}

// NewHookStore hands out a cache as a HookStore: any package can install
// a hook, which then runs under the cache's lock.
func NewHookStore() HookStore { return &hookCache{} }

// hookCache is unexported too, but handed out through HookStore.
type hookCache struct {
	mu        sync.Mutex
	items     map[string]string
	onReplace func()
}

// SetOnReplace installs the hook run after each Replace.
func (c *hookCache) SetOnReplace(hook func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onReplace = hook
}

// Replace swaps the items and runs the users' hook under the lock.
func (c *hookCache) Replace(items map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items = items
	if c.onReplace != nil {
		c.onReplace() // want `c.mu held across call of func value c.onReplace \(locked at stores.go:\d+, released by defer\)`
	}
}
