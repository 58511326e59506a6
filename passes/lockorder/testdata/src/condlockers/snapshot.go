// Package condlockers holds locks taken through a sync.Cond's L and through
// RWMutex.RLocker: a catalog snapshot whose readers wait on a Cond made on
// the read side of the snapshot's lock (cockroach#16167), and a job queue
// whose Cond is made on its mutex. Taking L is taking that lock.
package condlockers

import "sync"

// Catalog is a schema snapshot that readers wait for.
type Catalog struct {
	mu     sync.RWMutex
	ready  *sync.Cond
	loaded bool
	tables map[string]int
}

// NewCatalog makes ready wait on the read side of mu.
func NewCatalog() *Catalog {
	c := &Catalog{tables: map[string]int{}}
	c.ready = sync.NewCond(c.mu.RLocker())
	return c
}

// Publish installs a new snapshot and wakes the readers.
func (c *Catalog) Publish(tables map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables = tables
	c.loaded = true
	c.ready.Broadcast()
}

// tableID read-locks the catalog.
func (c *Catalog) tableID(name string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.tables[name]
}

// tableIDLocked requires the catalog to be read-locked.
func (c *Catalog) tableIDLocked(name string) int { return c.tables[name] }

// Resolve holds the read lock through ready.L and read-locks again in
// tableID: a Publish queued in between deadlocks both.
func (c *Catalog) Resolve(names []string) []int {
	c.ready.L.Lock()
	for !c.loaded {
		c.ready.Wait()
	}
	defer c.ready.L.Unlock()
	var ids []int
	for _, name := range names {
		ids = append(ids, c.tableID(name)) // want `c.mu read-locked again through call of \(\*Catalog\).tableID while held \(locked at snapshot.go:46\)`
	}
	return ids
}

// ResolveFixed reads the tables under the read lock it already holds.
func (c *Catalog) ResolveFixed(names []string) []int {
	c.ready.L.Lock()
	for !c.loaded {
		c.ready.Wait()
	}
	defer c.ready.L.Unlock()
	var ids []int
	for _, name := range names {
		ids = append(ids, c.tableIDLocked(name))
	}
	return ids
}

// Count read-locks through a Locker of the read side, then again.
func (c *Catalog) Count(names []string) int {
	rl := c.mu.RLocker()
	rl.Lock()
	defer rl.Unlock()
	n := 0
	for _, name := range names {
		if c.tableID(name) != 0 { // want `c.mu read-locked again through call of \(\*Catalog\).tableID while held \(locked at snapshot.go:75\)`
			n++
		}
	}
	return n
}

// CountFixed releases the read side before it looks the tables up.
func (c *Catalog) CountFixed(names []string) int {
	rl := c.mu.RLocker()
	rl.Lock()
	want := len(names)
	rl.Unlock()
	n := 0
	for _, name := range names {
		if c.tableID(name) != 0 {
			n++
		}
	}
	return n + 0*want
}
