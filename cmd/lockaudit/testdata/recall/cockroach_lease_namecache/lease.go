// Models cockroach#7504 (GoKer cockroach_7504): tableState.release locks a LeaseState and then, through removeLease, the tableNameCache; tableNameCache.get locks the cache and then the cached LeaseState (AB-BA across three types, one side two calls deep).
package cockroach_lease_namecache

import "sync"

// LeaseState is one table descriptor lease.
type LeaseState struct {
	mu       sync.Mutex
	id       int
	name     string
	refcount int
	released bool
}

// tableNameCache maps a table name to its newest lease.
type tableNameCache struct {
	mu     sync.Mutex
	tables map[string]*LeaseState
}

// get returns the cached lease for name, acquiring a reference. Buggy version.
func (c *tableNameCache) get(name string) *LeaseState {
	c.mu.Lock()
	defer c.mu.Unlock()
	lease, ok := c.tables[name]
	if !ok {
		return nil
	}
	lease.mu.Lock() // BUG: cache -> lease, while release goes lease -> cache
	defer lease.mu.Unlock()
	if lease.released {
		return nil
	}
	lease.refcount++
	return lease
}

func (c *tableNameCache) remove(lease *LeaseState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if existing, ok := c.tables[lease.name]; ok && existing == lease {
		delete(c.tables, lease.name)
	}
}

// tableState holds the active leases of one table.
type tableState struct {
	mu             sync.Mutex
	active         []*LeaseState
	tableNameCache *tableNameCache
}

func (t *tableState) release(lease *LeaseState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	lease.mu.Lock()
	defer lease.mu.Unlock()
	lease.refcount--
	if lease.refcount == 0 {
		t.removeLease(lease)
	}
}

func (t *tableState) removeLease(lease *LeaseState) {
	for i, l := range t.active {
		if l == lease {
			t.active = append(t.active[:i], t.active[i+1:]...)
			break
		}
	}
	lease.released = true
	t.tableNameCache.remove(lease) // BUG: lease -> cache
}

// LeaseManager hands out leases.
type LeaseManager struct {
	mu         sync.Mutex
	tableNames *tableNameCache
	tables     map[int]*tableState
}

// AcquireByName returns a cached lease.
func (m *LeaseManager) AcquireByName(name string) *LeaseState { return m.tableNames.get(name) }

// Release drops a reference to lease.
func (m *LeaseManager) Release(lease *LeaseState) {
	m.mu.Lock()
	t := m.tables[lease.id]
	m.mu.Unlock()
	t.release(lease)
}

// tableNameCacheFixed is the fixed version: get releases the cache lock
// before it locks the lease, so the only order is lease -> cache.
type tableNameCacheFixed struct {
	mu     sync.Mutex
	tables map[string]*LeaseState
}

func (c *tableNameCacheFixed) get(name string) *LeaseState {
	c.mu.Lock()
	lease, ok := c.tables[name]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	lease.mu.Lock()
	defer lease.mu.Unlock()
	if lease.released {
		return nil
	}
	lease.refcount++
	return lease
}

func (c *tableNameCacheFixed) remove(lease *LeaseState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if existing, ok := c.tables[lease.name]; ok && existing == lease {
		delete(c.tables, lease.name)
	}
}

type tableStateFixed struct {
	mu             sync.Mutex
	active         []*LeaseState
	tableNameCache *tableNameCacheFixed
}

func (t *tableStateFixed) release(lease *LeaseState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	lease.mu.Lock()
	defer lease.mu.Unlock()
	lease.refcount--
	if lease.refcount == 0 {
		t.removeLease(lease)
	}
}

func (t *tableStateFixed) removeLease(lease *LeaseState) {
	for i, l := range t.active {
		if l == lease {
			t.active = append(t.active[:i], t.active[i+1:]...)
			break
		}
	}
	lease.released = true
	t.tableNameCache.remove(lease)
}

// LeaseManagerFixed hands out leases.
type LeaseManagerFixed struct {
	mu         sync.Mutex
	tableNames *tableNameCacheFixed
	tables     map[int]*tableStateFixed
}

// AcquireByName returns a cached lease.
func (m *LeaseManagerFixed) AcquireByName(name string) *LeaseState { return m.tableNames.get(name) }

// Release drops a reference to lease.
func (m *LeaseManagerFixed) Release(lease *LeaseState) {
	m.mu.Lock()
	t := m.tables[lease.id]
	m.mu.Unlock()
	t.release(lease)
}
