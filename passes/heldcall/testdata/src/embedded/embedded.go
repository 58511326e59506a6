// Package embedded holds mutexes embedded in the structs they guard,
// locked as c.Lock(), each positive next to its correct twin.
package embedded

import (
	"sync"
	"time"
)

// Counter is a per-endpoint request counter with a report hook.
type Counter struct {
	sync.Mutex
	hits   map[string]int
	report func(endpoint string, n int)
}

func (c *Counter) HitHeld(endpoint string) {
	c.Lock()
	defer c.Unlock()
	c.hits[endpoint]++
	if n := c.hits[endpoint]; n%1000 == 0 {
		c.report(endpoint, n) // want `c.Mutex held across call of func value c.report \(locked at embedded.go:18, released by defer\) \(plausible: the func value can be field report, which the package never sets\)`
	}
}

func (c *Counter) Hit(endpoint string) {
	c.Lock()
	c.hits[endpoint]++
	n := c.hits[endpoint]
	c.Unlock()
	if n%1000 == 0 {
		c.report(endpoint, n)
	}
}

// Catalog is a read-mostly product catalog.
type Catalog struct {
	sync.RWMutex
	prices  map[string]int
	updates chan string
}

func (c *Catalog) SetPriceHeld(sku string, cents int) {
	c.Lock()
	c.prices[sku] = cents
	c.updates <- sku // want `c.RWMutex held across channel send \(locked at embedded.go:44\)`
	c.Unlock()
}

func (c *Catalog) SetPrice(sku string, cents int) {
	c.Lock()
	c.prices[sku] = cents
	c.Unlock()
	c.updates <- sku
}

func (c *Catalog) PriceSlowHeld(sku string) int {
	c.RLock()
	defer c.RUnlock()
	time.Sleep(time.Millisecond) // want `c.RWMutex held across call of time.Sleep \(locked at embedded.go:58, released by defer\)`
	return c.prices[sku]
}

func (c *Catalog) PriceSlow(sku string) int {
	time.Sleep(time.Millisecond)
	c.RLock()
	defer c.RUnlock()
	return c.prices[sku]
}

// shard is one stripe of a striped map; its mutex is embedded.
type shard struct {
	sync.Mutex
	m map[string][]byte
}

// Striped spreads keys over shards.
type Striped struct {
	shards  [16]shard
	onStore func(key string, size int)
}

func (s *Striped) StoreHeld(i int, key string, val []byte) {
	s.shards[i].Lock()
	s.shards[i].m[key] = val
	s.onStore(key, len(val)) // want `s.shards\[i\].Mutex held across call of func value s.onStore \(locked at embedded.go:84\) \(plausible: the func value can be field onStore, which the package never sets\)`
	s.shards[i].Unlock()
}

func (s *Striped) Store(i int, key string, val []byte) {
	s.shards[i].Lock()
	s.shards[i].m[key] = val
	s.shards[i].Unlock()
	s.onStore(key, len(val))
}

// Session embeds a pointer to a mutex shared by a user's sessions.
type Session struct {
	*sync.Mutex
	values map[string]string
	save   func(map[string]string) error
}

func (s *Session) SaveHeld() error {
	s.Lock()
	defer s.Unlock()
	return s.save(s.values) // want `s.Mutex held across call of func value s.save \(locked at embedded.go:105, released by defer\) \(plausible: the func value can be field save, which the package never sets\)`
}

func (s *Session) Save() error {
	s.Lock()
	cp := make(map[string]string, len(s.values))
	for k, v := range s.values {
		cp[k] = v
	}
	s.Unlock()
	return s.save(cp)
}

// base is embedded in services; its mutex is promoted through two levels.
type base struct {
	sync.Mutex
	name string
}

// Worker embeds base.
type Worker struct {
	base
	tasks chan func()
}

func (w *Worker) NextHeld() func() {
	w.Lock()
	defer w.Unlock()
	return <-w.tasks // want `w.base.Mutex held across channel receive \(locked at embedded.go:133, released by defer\)`
}

func (w *Worker) Next() func() {
	t := <-w.tasks
	w.Lock()
	w.name = "busy"
	w.Unlock()
	return t
}
