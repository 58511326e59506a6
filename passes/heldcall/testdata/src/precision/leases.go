package precision

import (
	"sort"
	"strings"
	"sync"
)

// Waits through a lazily made WaitGroup that are not joins with quick
// workers: a group whose leases the package's users end by hand with
// Add(-1), and workers that take the caller's lock through an accessor,
// which has no class the join could name. Each is reported; the silent
// twins are CommitLazy (merkletree.go) and ReindexQuick below.

// leaseGroup is a WaitGroup made on first use.
type leaseGroup struct {
	wg *sync.WaitGroup
}

func (g *leaseGroup) add(n int) {
	if g.wg == nil {
		g.wg = new(sync.WaitGroup)
	}
	g.wg.Add(n)
}

func (g *leaseGroup) wait() {
	if g.wg != nil {
		g.wg.Wait()
	}
}

// LeaseServer hands out leases that its users end.
type LeaseServer struct {
	mu       sync.Mutex
	inflight leaseGroup
	index    []int
}

// Acquire starts a lease.
func (s *LeaseServer) Acquire() {
	s.mu.Lock()
	s.inflight.add(1)
	s.mu.Unlock()
}

// Release ends a lease: the user's own Done.
func (s *LeaseServer) Release() { s.inflight.wg.Add(-1) }

// Reindex sorts the index on a worker of the group.
func (s *LeaseServer) Reindex() {
	s.inflight.add(1)
	go func(wg *sync.WaitGroup, idx []int) {
		defer wg.Done()
		sort.Ints(idx)
	}(s.inflight.wg, s.index)
}

// Drain waits, under the lock, for every lease the users hold.
func (s *LeaseServer) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight.wait() // want `s.mu held across call of \(\*leaseGroup\).wait, which blocks: \(\*leaseGroup\).wait -> sync.\(\*WaitGroup\).Wait`
}

// Catalog refreshes its entries on workers.
type Catalog struct {
	mu      sync.Mutex
	entries map[string]string
}

func (c *Catalog) locker() *sync.Mutex { return &c.mu }

// refreshAll records each key's entry on a worker, under the catalog's
// lock, reached through its accessor. (A wrapper's Wait joins the workers
// of every group its field holds: these workers wait on auditGroup, whose
// other workers take a lock too, and upperAll's on lazyWaitGroup, whose
// other workers only compute.)
func (c *Catalog) refreshAll(keys []string) {
	var g auditGroup
	for _, k := range keys {
		g.Add(1)
		go func(wg *sync.WaitGroup, k string) {
			defer wg.Done()
			mu := c.locker()
			mu.Lock()
			c.entries[k] = strings.ToUpper(k)
			mu.Unlock()
		}(g.wg, k)
	}
	g.Wait()
}

// Refresh holds the lock the workers need while it waits for them.
func (c *Catalog) Refresh(keys []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refreshAll(keys) // want `c.mu held across call of \(\*Catalog\).refreshAll, which blocks`
}

// upperAll computes each key's entry on a worker and stores them after
// the join.
func (c *Catalog) upperAll(keys []string) []string {
	var g lazyWaitGroup
	out := make([]string, len(keys))
	for i, k := range keys {
		g.Add(1)
		go func(wg *sync.WaitGroup, i int, k string) {
			defer wg.Done()
			out[i] = strings.ToUpper(k)
		}(g.wg, i, k)
	}
	g.Wait()
	return out
}

// ReindexQuick is Refresh with workers that only compute. Not a finding.
func (c *Catalog) ReindexQuick(keys []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, v := range c.upperAll(keys) {
		c.entries[keys[i]] = v
	}
}

// counter is a lazily made WaitGroup whose Done is its own Add(-1).
type counter struct {
	wg *sync.WaitGroup
}

func (c *counter) Add(delta int) {
	if c.wg == nil {
		c.wg = new(sync.WaitGroup)
	}
	c.wg.Add(delta)
}

func (c *counter) Done() { c.Add(-1) }

func (c *counter) Wait() {
	if c.wg != nil {
		c.wg.Wait()
	}
}

// Uploads counts uploads its users start and finish.
type Uploads struct {
	mu      sync.Mutex
	pending counter
}

// Begin counts an upload in.
func (u *Uploads) Begin() {
	u.mu.Lock()
	u.pending.Add(1)
	u.mu.Unlock()
}

// End counts an upload out: the users' own Done.
func (u *Uploads) End() { u.pending.Done() }

// Compact sorts the upload sizes on a worker of the group.
func (u *Uploads) Compact(sizes []int) {
	u.pending.Add(1)
	go func(wg *sync.WaitGroup) {
		defer wg.Done()
		sort.Ints(sizes)
	}(u.pending.wg)
}

// Flush waits, under the lock, for every upload the users began.
func (u *Uploads) Flush() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.pending.Wait() // want `u.mu held across call of \(\*counter\).Wait, which blocks: \(\*counter\).Wait -> sync.\(\*WaitGroup\).Wait`
}
