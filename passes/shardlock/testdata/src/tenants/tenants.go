// Package tenants holds tenant-keyed caches: the field report's single lock
// over a hot map, locks put back above shards, and shards locked out of
// order, each next to its correct twin.
package tenants

import (
	"hash/maphash"
	"sync"
)

type Schema struct {
	Tenant string
	Tools  []string
}

// SchemaCache is one RWMutex over the whole map.
type SchemaCache struct {
	mu      sync.RWMutex
	schemas map[string]*Schema
}

func (c *SchemaCache) Get(tenant string) *Schema {
	c.mu.RLock() // want `c.mu is one RWMutex over the whole map c.schemas, read under RLock here and written under Lock at tenants.go:30: a waiting writer stalls every reader \(consider sharding the map\)`
	defer c.mu.RUnlock()
	return c.schemas[tenant]
}

func (c *SchemaCache) Upsert(s *Schema) {
	c.mu.Lock() // want `c.mu is one RWMutex over the whole map c.schemas, written under Lock here and read under RLock at tenants.go:23: a waiting writer stalls every reader \(consider sharding the map\)`
	c.schemas[s.Tenant] = s
	c.mu.Unlock()
}

// Catalog is its twin for a map that is only read once built: no writer,
// no convoy.
type Catalog struct {
	mu    sync.RWMutex
	tools map[string]string
}

func NewCatalog(tools map[string]string) *Catalog { return &Catalog{tools: tools} }

func (c *Catalog) Describe(tool string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.tools[tool]
}

const shardCount = 32

type shard struct {
	mu      sync.Mutex
	schemas map[string]*Schema
}

// ShardedCache gives each slice of the tenants its own lock.
type ShardedCache struct {
	seed   maphash.Seed
	shards [shardCount]shard
}

func (c *ShardedCache) shardFor(tenant string) *shard {
	return &c.shards[maphash.String(c.seed, tenant)&(shardCount-1)]
}

func (c *ShardedCache) Get(tenant string) *Schema {
	sh := c.shardFor(tenant)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.schemas[tenant]
}

// GuardedCache puts one lock back above its shards.
type GuardedCache struct {
	mu     sync.RWMutex
	seed   maphash.Seed
	shards [shardCount]shard
	closed bool
}

func (c *GuardedCache) shardFor(tenant string) *shard {
	return &c.shards[maphash.String(c.seed, tenant)&(shardCount-1)]
}

func (c *GuardedCache) GetHeld(tenant string) *Schema {
	c.mu.RLock() // want `c.mu is held above the shard lock sh.mu \(taken at tenants.go:92\): one lock serialises the shards again`
	defer c.mu.RUnlock()
	if c.closed {
		return nil
	}
	sh := c.shardFor(tenant)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.schemas[tenant]
}

// Get is the twin: the closed flag is read under the outer lock, which is
// released before the shard's is taken.
func (c *GuardedCache) Get(tenant string) *Schema {
	c.mu.RLock()
	closed := c.closed
	c.mu.RUnlock()
	if closed {
		return nil
	}
	sh := c.shardFor(tenant)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.schemas[tenant]
}

// PutHeld indexes the shard directly, under the outer lock.
func (c *GuardedCache) PutHeld(s *Schema) {
	c.mu.Lock() // want `c.mu is held above the shard lock c.shards\[i\].mu \(taken at tenants.go:117\): one lock serialises the shards again`
	defer c.mu.Unlock()
	i := maphash.String(c.seed, s.Tenant) & (shardCount - 1)
	c.shards[i].mu.Lock()
	c.shards[i].schemas[s.Tenant] = s
	c.shards[i].mu.Unlock()
}

// Close locks every shard in index order under the outer lock to drain
// them: every Get queues behind the whole drain.
func (c *GuardedCache) Close() {
	c.mu.Lock() // want `c.mu is held above the shard lock c.shards\[i\].mu \(taken at tenants.go:129, in a loop over every shard\): one lock serialises the shards again`
	defer c.mu.Unlock()
	c.closed = true
	for i := range c.shards {
		c.shards[i].mu.Lock()
		c.shards[i].schemas = nil
		c.shards[i].mu.Unlock()
	}
}

// MoveHeld moves a tenant between two shards, locking them in argument
// order: two moves in opposite directions deadlock.
func (c *ShardedCache) MoveHeld(from, to uint64, tenant string) {
	c.shards[from].mu.Lock()
	defer c.shards[from].mu.Unlock()
	c.shards[to].mu.Lock() // want `shard lock c.shards\[to\].mu taken while c.shards\[from\].mu is held, in no fixed index order \(locked at tenants.go:138\): two goroutines locking the same pair in opposite orders deadlock`
	defer c.shards[to].mu.Unlock()
	c.shards[to].schemas[tenant] = c.shards[from].schemas[tenant]
	delete(c.shards[from].schemas, tenant)
}

// Move is the twin: it returns early unless the indices are in order, so
// the lower index is always locked first.
func (c *ShardedCache) Move(from, to uint64, tenant string) {
	if from >= to {
		return
	}
	c.shards[from].mu.Lock()
	defer c.shards[from].mu.Unlock()
	c.shards[to].mu.Lock()
	defer c.shards[to].mu.Unlock()
	c.shards[to].schemas[tenant] = c.shards[from].schemas[tenant]
	delete(c.shards[from].schemas, tenant)
}

// putShard takes one shard's lock.
func (c *GuardedCache) putShard(i uint64, s *Schema) {
	c.shards[i].mu.Lock()
	c.shards[i].schemas[s.Tenant] = s
	c.shards[i].mu.Unlock()
}

// ReplaceHeld holds the outer lock across a helper that locks a shard.
func (c *GuardedCache) ReplaceHeld(i uint64, s *Schema) {
	c.mu.Lock() // want `c.mu is held above the shard lock c.shards\[i\].mu \(taken at tenants.go:171\): one lock serialises the shards again`
	defer c.mu.Unlock()
	c.putShard(i, s)
}

// Replace is its twin: the outer lock only guards the closed flag.
func (c *GuardedCache) Replace(i uint64, s *Schema) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if !closed {
		c.putShard(i, s)
	}
}

// CloseAll holds the outer lock while a helper locks each shard in turn.
func (c *GuardedCache) CloseAll() {
	c.mu.Lock() // want `c.mu is held above the shard lock c.shards\[i\].mu \(taken at tenants.go:189, in a loop over every shard\): one lock serialises the shards again`
	defer c.mu.Unlock()
	for i := range c.shards {
		c.putShard(uint64(i), &Schema{Tenant: "drain"})
	}
}

// Drain is the twin of Close and CloseAll: the outer lock only sets the
// closed flag, and each shard is drained under its own lock after it is
// released.
func (c *GuardedCache) Drain() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	for i := range c.shards {
		c.shards[i].mu.Lock()
		c.shards[i].schemas = nil
		c.shards[i].mu.Unlock()
	}
	for i := range c.shards {
		c.putShard(uint64(i), &Schema{Tenant: "drain"})
	}
}
