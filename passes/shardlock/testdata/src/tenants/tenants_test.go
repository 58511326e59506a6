package tenants

import "testing"

// fillHeld seeds every shard under the outer lock, as a test's setup does:
// a lock above shards in a test costs no production time, so it is not
// reported unless -tests asks for it.
func fillHeld(c *GuardedCache, s *Schema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.shards {
		c.shards[i].mu.Lock()
		c.shards[i].schemas = map[string]*Schema{s.Tenant: s}
		c.shards[i].mu.Unlock()
	}
}

// swapHeld locks two shards in argument order: a test that does it from
// two goroutines hangs, so shard-order is reported in tests too.
func swapHeld(c *ShardedCache, a, b uint64) {
	c.shards[a].mu.Lock()
	defer c.shards[a].mu.Unlock()
	c.shards[b].mu.Lock() // want `shard lock c.shards\[b\].mu taken while c.shards\[a\].mu is held, in no fixed index order \(locked at tenants_test.go:\d+\): two goroutines locking the same pair in opposite orders deadlock`
	defer c.shards[b].mu.Unlock()
	c.shards[a].schemas, c.shards[b].schemas = c.shards[b].schemas, c.shards[a].schemas
}

func TestFill(t *testing.T) {
	c := &GuardedCache{}
	fillHeld(c, &Schema{Tenant: "acme"})
	swapHeld(&ShardedCache{}, 0, 1)
}
