// want package:"7 lock-order edges"

package dispatch

import "sync"

// Index is Scheduler with the store call one helper below the lock: the
// helper's interface call still runs the index's own store, whose lock
// is an object of its own, not a part of the index.
type Index struct {
	mu      sync.Mutex
	entries map[string]int
	store   Store
}

// NewIndex returns an index over an in-memory store that reports back.
func NewIndex() *Index {
	x := &Index{entries: map[string]int{}}
	x.store = &indexStore{index: x}
	return x
}

// Add persists under x.mu through persist: x.mu, then the store's lock.
func (x *Index) Add(id string, spec []byte) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.entries[id]++
	x.persist(id, spec) // want `x.store.mu locked through call of \(\*Index\).persist while holding x.mu \(locked at helpers.go:25\); the opposite order is taken at helpers.go:56: lock-order inversion`
}

func (x *Index) persist(id string, spec []byte) { x.store.Save(id, spec) }

func (x *Index) compacted() {
	x.mu.Lock()
	x.entries = map[string]int{}
	x.mu.Unlock()
}

type indexStore struct {
	mu    sync.Mutex
	index *Index
	specs map[string][]byte
}

func (s *indexStore) Save(id string, spec []byte) {
	s.mu.Lock()
	s.specs[id] = spec
	s.mu.Unlock()
}

// Flush tells the index under s.mu: the store's lock, then the index's.
func (s *indexStore) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.specs = nil
	s.index.compacted() // want `s.index.mu locked through call of \(\*Index\).compacted while holding s.mu \(locked at helpers.go:53\); the opposite order is taken at helpers.go:28: lock-order inversion`
}

// Catalog is Index's twin: its store reports back after releasing its
// lock, so the helper's interface call orders nothing against it.
type Catalog struct {
	mu      sync.Mutex
	entries map[string]int
	store   Store
}

// NewCatalog returns a catalog over an in-memory store that reports back.
func NewCatalog() *Catalog {
	c := &Catalog{entries: map[string]int{}}
	c.store = &catalogStore{catalog: c}
	return c
}

func (c *Catalog) Add(id string, spec []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[id]++
	c.persist(id, spec)
}

func (c *Catalog) persist(id string, spec []byte) { c.store.Save(id, spec) }

func (c *Catalog) compacted() {
	c.mu.Lock()
	c.entries = map[string]int{}
	c.mu.Unlock()
}

type catalogStore struct {
	mu      sync.Mutex
	catalog *Catalog
	specs   map[string][]byte
}

func (s *catalogStore) Save(id string, spec []byte) {
	s.mu.Lock()
	s.specs[id] = spec
	s.mu.Unlock()
}

func (s *catalogStore) Flush() {
	s.mu.Lock()
	s.specs = nil
	s.mu.Unlock()
	s.catalog.compacted()
}
