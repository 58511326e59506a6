// Package inventory holds recursive read locks of a store's lock through
// another type's method: the store read-locks itself and asks its tag
// index, which reads quantities through its own store pointer. The index's
// store is the same store in practice, but only the class is known: a note.
// A category read-locking its parent, a method of its own type, is a
// parent and its child, not a re-entry.
package inventory

import "sync"

// Store holds item quantities and a tag index over them.
type Store struct {
	mu    sync.RWMutex
	items map[string]int
	index *Index
}

// Index maps tags to item keys and resolves them through its store.
type Index struct {
	store *Store
	byTag map[string][]string
}

// Put writes a quantity: the store's lock has a writer.
func (s *Store) Put(key string, qty int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items[key] = qty
}

// Qty read-locks the store.
func (s *Store) Qty(key string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[key]
}

// total adds up a tag's quantities through the index's store.
func (ix *Index) total(tag string) int {
	n := 0
	for _, k := range ix.byTag[tag] {
		n += ix.store.Qty(k)
	}
	return n
}

// TaggedHeld read-locks the store and asks the index, which read-locks its
// store again: a Put queued between the two read locks deadlocks both.
func (s *Store) TaggedHeld(tag string) (items, tagged int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.items), s.index.total(tag) // want `s.mu read-locked again through call of \(\*Index\).total, which read-locks s.index.store.mu, a lock of its class, while held \(locked at inventory.go:50\) \(plausible: the instance read-locked again is known only by its class\)`
}

// Tagged is the twin of TaggedHeld: it releases the store's lock before
// asking the index.
func (s *Store) Tagged(tag string) (items, tagged int) {
	s.mu.RLock()
	items = len(s.items)
	s.mu.RUnlock()
	return items, s.index.total(tag)
}

// refresh recounts a tag through the index.
func (s *Store) refresh(tag string) int { return s.index.total(tag) }

// RefreshHeld reaches the index through a method of the store's own type:
// the index is still on the way.
func (s *Store) RefreshHeld(tag string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.refresh(tag) // want `s.mu read-locked again through call of \(\*Store\).refresh, which read-locks s.index.store.mu, a lock of its class, through \(\*Index\).total while held \(locked at inventory.go:70\) \(plausible: the instance read-locked again is known only by its class\)`
}

// Refresh is the twin of RefreshHeld.
func (s *Store) Refresh(tag string) int {
	s.mu.RLock()
	n := len(s.items)
	s.mu.RUnlock()
	return n + s.refresh(tag)
}

// Category is a node of a category tree.
type Category struct {
	mu     sync.RWMutex
	parent *Category
	name   string
}

// Name read-locks the category.
func (c *Category) Name() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.name
}

// Rename writes the name: the category's lock has a writer.
func (c *Category) Rename(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.name = name
}

// Path read-locks the category, then its parent's: a child, then its
// parent, always in that order, never the same instance.
func (c *Category) Path() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.parent == nil {
		return c.name
	}
	return c.parent.Name() + "/" + c.name
}

// Snapshot is filled before it is shared and only read-locked afterwards:
// no writer can queue between two read locks of its lock.
type Snapshot struct {
	mu    sync.RWMutex
	items map[string]int
	view  *View
}

// View reads a snapshot.
type View struct{ snap *Snapshot }

// Qty read-locks the snapshot.
func (s *Snapshot) Qty(key string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[key]
}

func (v *View) qty(key string) int { return v.snap.Qty(key) }

// Compare read-locks the snapshot and asks its view, which read-locks the
// view's snapshot: harmless, since nothing write-locks a snapshot.
func (s *Snapshot) Compare(key string) (own, viewed int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[key], s.view.qty(key)
}
