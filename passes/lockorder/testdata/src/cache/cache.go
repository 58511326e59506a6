// Package cache holds re-entrant locking mistakes in an LRU-style cache,
// each next to its correct twin.
package cache

import "sync"

type Cache struct {
	mu    sync.Mutex
	items map[string][]byte
	max   int
}

// Len locks the cache.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// lenLocked is for callers holding c.mu.
func (c *Cache) lenLocked() int { return len(c.items) }

func (c *Cache) evictOneLocked() {
	for k := range c.items {
		delete(c.items, k)
		return
	}
}

// PutHeld asks for the size through the locking accessor while holding the
// lock: the goroutine deadlocks on itself.
func (c *Cache) PutHeld(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Len() >= c.max { // want `c.mu locked again through call of \(\*Cache\).Len while held \(locked at cache.go:33\)`
		c.evictOneLocked()
	}
	c.items[k] = v
}

// Put is its twin.
func (c *Cache) Put(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lenLocked() >= c.max {
		c.evictOneLocked()
	}
	c.items[k] = v
}

// DeleteHeld forgets to unlock on the early-return path of the previous
// operation and locks again.
func (c *Cache) DeleteHeld(keys []string) {
	c.mu.Lock()
	delete(c.items, keys[0])
	c.mu.Lock() // want `c.mu locked again while held \(locked at cache.go:54\)`
	delete(c.items, keys[1])
	c.mu.Unlock()
}

// Delete is its twin.
func (c *Cache) Delete(keys []string) {
	c.mu.Lock()
	delete(c.items, keys[0])
	c.mu.Unlock()
	c.mu.Lock()
	delete(c.items, keys[1])
	c.mu.Unlock()
}

// Index is read-mostly.
type Index struct {
	rw   sync.RWMutex
	byID map[int]string
}

// LookupOrAddHeld upgrades its read lock in place: Lock waits for all
// readers, itself included.
func (x *Index) LookupOrAddHeld(id int, name string) string {
	x.rw.RLock()
	defer x.rw.RUnlock()
	if n, ok := x.byID[id]; ok {
		return n
	}
	x.rw.Lock() // want `x.rw locked for writing while held \(locked at cache.go:80\)`
	x.byID[id] = name
	x.rw.Unlock()
	return name
}

// LookupOrAdd is its twin: it releases the read lock first and re-checks.
func (x *Index) LookupOrAdd(id int, name string) string {
	x.rw.RLock()
	n, ok := x.byID[id]
	x.rw.RUnlock()
	if ok {
		return n
	}
	x.rw.Lock()
	defer x.rw.Unlock()
	if n, ok := x.byID[id]; ok {
		return n
	}
	x.byID[id] = name
	return name
}

// Name read-locks.
func (x *Index) Name(id int) string {
	x.rw.RLock()
	defer x.rw.RUnlock()
	return x.byID[id]
}

// NamesHeld read-locks and calls Name, which read-locks again: a writer
// arriving between the two blocks the second RLock, and the first is never
// released.
func (x *Index) NamesHeld(ids []int) []string {
	x.rw.RLock()
	defer x.rw.RUnlock()
	var out []string
	for _, id := range ids {
		out = append(out, x.Name(id)) // want `x.rw read-locked again through call of \(\*Index\).Name while held \(locked at cache.go:119\)`
	}
	return out
}

// Names is its twin.
func (x *Index) Names(ids []int) []string {
	x.rw.RLock()
	defer x.rw.RUnlock()
	var out []string
	for _, id := range ids {
		out = append(out, x.byID[id])
	}
	return out
}

// lock is a wrapper; ResizeHeld takes it twice through the wrapper and a
// method.
func (c *Cache) lock() { c.mu.Lock() }

func (c *Cache) ResizeHeld(max int) {
	c.lock()
	defer c.mu.Unlock()
	c.max = max
	for c.Len() > max { // want `c.mu locked again through call of \(\*Cache\).Len while held \(locked at cache.go:144\)`
		c.evictOneLocked()
	}
}

func (c *Cache) Resize(max int) {
	c.lock()
	defer c.mu.Unlock()
	c.max = max
	for c.lenLocked() > max {
		c.evictOneLocked()
	}
}

// TryPut uses TryLock, which never deadlocks: not a finding.
func (c *Cache) TryPut(k string, v []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.mu.TryLock() {
		c.items[k] = v
		return true
	}
	return false
}

// MergeHeld locks two caches of one class in argument order: Merge(a, b)
// beside Merge(b, a) deadlocks.
func MergeHeld(dst, src *Cache) {
	dst.mu.Lock()
	defer dst.mu.Unlock()
	src.mu.Lock() // want `src.mu locked while dst.mu, a lock of the same class, is held \(locked at cache.go:175\), in no fixed order: a call with the two swapped deadlocks`
	defer src.mu.Unlock()
	for k, v := range src.items {
		dst.items[k] = v
	}
}

// Merge is its twin: it copies the source under its own lock first, then
// takes the destination's alone.
func Merge(dst, src *Cache) {
	src.mu.Lock()
	items := make(map[string][]byte, len(src.items))
	for k, v := range src.items {
		items[k] = v
	}
	src.mu.Unlock()
	dst.mu.Lock()
	defer dst.mu.Unlock()
	for k, v := range items {
		dst.items[k] = v
	}
}

// refillAndUnlock is called with c.mu held; it releases it and then takes
// it again through Len: not a double lock.
func (c *Cache) refillAndUnlock() {
	c.mu.Unlock()
	if c.Len() < c.max {
		c.items["warm"] = nil
	}
}

func (c *Cache) Refill() {
	c.mu.Lock()
	c.refillAndUnlock()
}

// refillLocked keeps the lock and asks Len: its caller deadlocks.
func (c *Cache) refillLocked() {
	if c.Len() < c.max {
		c.items["warm"] = nil
	}
}

func (c *Cache) RefillHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refillLocked() // want `c.mu locked again through call of \(\*Cache\).refillLocked while held \(locked at cache.go:222\)`
}
