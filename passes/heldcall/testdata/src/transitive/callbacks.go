package transitive

import "sync"

// Entry is a cached value.
type Entry struct {
	Key   string
	Value []byte
}

// forEach calls fn on each entry.
func forEach(entries []Entry, fn func(Entry)) {
	for _, e := range entries {
		fn(e)
	}
}

// TTLCache expires entries and reports them to its owner.
type TTLCache struct {
	mu      sync.Mutex
	expired []Entry
	onEvict func(Entry)
	entries map[string]Entry
}

// PurgeHeld hands the eviction hook to a helper that calls it, with the
// cache locked.
func (c *TTLCache) PurgeHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	forEach(c.expired, c.onEvict) // want `c.mu held across call of forEach, which calls func value c.onEvict \(locked at callbacks.go:29, released by defer\)`
	c.expired = nil
}

func (c *TTLCache) Purge() {
	c.mu.Lock()
	expired := c.expired
	c.expired = nil
	hook := c.onEvict
	c.mu.Unlock()
	forEach(expired, hook)
}

// evict removes an entry and calls the eviction hook.
func (c *TTLCache) evict(key string) {
	e := c.entries[key]
	delete(c.entries, key)
	c.onEvict(e)
}

// DeleteHeld calls a helper that runs the hook, with the cache locked.
func (c *TTLCache) DeleteHeld(key string) {
	c.mu.Lock()
	c.evict(key) // want `c.mu held across call of \(\*TTLCache\).evict, which calls func value c.onEvict \(\(\*TTLCache\).evict -> func value c.onEvict\) \(locked at callbacks.go:53\)`
	c.mu.Unlock()
}

// remove only deletes; Delete runs the hook after unlocking.
func (c *TTLCache) remove(key string) (Entry, bool) {
	e, ok := c.entries[key]
	delete(c.entries, key)
	return e, ok
}

func (c *TTLCache) Delete(key string) {
	c.mu.Lock()
	e, ok := c.remove(key)
	c.mu.Unlock()
	if ok {
		c.onEvict(e)
	}
}

// Visit passes a caller's func to a helper that calls it, with the cache
// locked.
func (c *TTLCache) VisitHeld(fn func(Entry)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	entries := make([]Entry, 0, len(c.entries))
	for _, e := range c.entries {
		entries = append(entries, e)
	}
	forEach(entries, fn) // want `c.mu held across call of forEach, which calls func value fn \(locked at callbacks.go:77, released by defer\)`
}

func (c *TTLCache) Visit(fn func(Entry)) {
	c.mu.Lock()
	entries := make([]Entry, 0, len(c.entries))
	for _, e := range c.entries {
		entries = append(entries, e)
	}
	c.mu.Unlock()
	forEach(entries, fn)
}

// Size passes a closure that only counts: not a finding.
func (c *TTLCache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	forEach(c.expired, func(Entry) { n++ })
	return n
}

// NewTTLCache returns a cache that hands expired entries to onEvict, the
// user's hook.
func NewTTLCache(onEvict func(Entry)) *TTLCache {
	return &TTLCache{onEvict: onEvict}
}
