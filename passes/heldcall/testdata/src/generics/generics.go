// Package generics holds generic caches and pools with locks, each
// positive next to its correct twin.
package generics

import (
	"io"
	"sync"
	"time"
)

// Cache is a generic LRU-ish cache with an eviction callback.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	items   map[K]V
	order   []K
	max     int
	OnEvict func(K, V)
}

func NewCache[K comparable, V any](max int, onEvict func(K, V)) *Cache[K, V] {
	return &Cache[K, V]{items: make(map[K]V), max: max, OnEvict: onEvict}
}

func (c *Cache[K, V]) SetHeld(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; !ok {
		c.order = append(c.order, k)
	}
	c.items[k] = v
	for len(c.order) > c.max {
		old := c.order[0]
		c.order = c.order[1:]
		ov := c.items[old]
		delete(c.items, old)
		if c.OnEvict != nil {
			c.OnEvict(old, ov) // want `c.mu held across call of func value c.OnEvict \(locked at generics.go:25, released by defer\)`
		}
	}
}

func (c *Cache[K, V]) Set(k K, v V) {
	type kv struct {
		k K
		v V
	}
	var evicted []kv
	c.mu.Lock()
	if _, ok := c.items[k]; !ok {
		c.order = append(c.order, k)
	}
	c.items[k] = v
	for len(c.order) > c.max {
		old := c.order[0]
		c.order = c.order[1:]
		evicted = append(evicted, kv{old, c.items[old]})
		delete(c.items, old)
	}
	onEvict := c.OnEvict
	c.mu.Unlock()
	if onEvict != nil {
		for _, e := range evicted {
			onEvict(e.k, e.v)
		}
	}
}

// GetOrLoadHeld loads a missing value with the cache locked.
func (c *Cache[K, V]) GetOrLoadHeld(k K, load func(K) (V, error)) (V, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.items[k]; ok {
		return v, nil
	}
	v, err := load(k) // want `c.mu held across call of func value load \(locked at generics.go:70, released by defer\)`
	if err == nil {
		c.items[k] = v
	}
	return v, err
}

func (c *Cache[K, V]) GetOrLoad(k K, load func(K) (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.items[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := load(k)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
	return v, nil
}

// Pool is a generic pool of closable resources.
type Pool[T io.Closer] struct {
	mu    sync.Mutex
	items []T
	New   func() (T, error)
}

func (p *Pool[T]) GetHeld() (T, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.items); n > 0 {
		it := p.items[n-1]
		p.items = p.items[:n-1]
		return it, nil
	}
	return p.New() // want `p.mu held across call of func value p.New \(locked at generics.go:107, released by defer\)`
}

func (p *Pool[T]) Get() (T, error) {
	p.mu.Lock()
	if n := len(p.items); n > 0 {
		it := p.items[n-1]
		p.items = p.items[:n-1]
		p.mu.Unlock()
		return it, nil
	}
	p.mu.Unlock()
	return p.New()
}

// DrainHeld closes the pooled resources through the type parameter's
// method with the pool locked.
func (p *Pool[T]) DrainHeld() {
	p.mu.Lock()
	for _, it := range p.items {
		it.Close() // want `p.mu held across call of interface method io.Closer.Close \(locked at generics.go:132\) \(plausible: T can be implemented outside this module\)`
	}
	p.items = nil
	p.mu.Unlock()
}

func (p *Pool[T]) Drain() {
	p.mu.Lock()
	items := p.items
	p.items = nil
	p.mu.Unlock()
	for _, it := range items {
		it.Close()
	}
}

// Batcher collects values and flushes them to a channel periodically.
type Batcher[T any] struct {
	mu    sync.Mutex
	buf   []T
	out   chan []T
	every time.Duration
}

func (b *Batcher[T]) AddHeld(v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, v)
	if len(b.buf) >= 100 {
		b.out <- b.buf // want `b.mu held across channel send \(locked at generics.go:159, released by defer\)`
		b.buf = nil
	}
}

func (b *Batcher[T]) Add(v T) {
	b.mu.Lock()
	b.buf = append(b.buf, v)
	var full []T
	if len(b.buf) >= 100 {
		full, b.buf = b.buf, nil
	}
	b.mu.Unlock()
	if full != nil {
		b.out <- full
	}
}

// Session is a cached user session.
type Session struct {
	User string
}

// sessions instantiates the generic cache; the instantiated methods keep
// their findings in the generic code above, not here.
var sessions = NewCache[string, *Session](1024, nil)

// Lookup uses the instantiated cache without holding any lock itself.
func Lookup(id string) (*Session, error) {
	return sessions.GetOrLoad(id, func(id string) (*Session, error) { return &Session{User: id}, nil })
}

// Registry keeps its own lock while it hands a batch to an instantiated
// batcher: the instantiation's method blocks as the generic one does.
type Registry struct {
	mu      sync.Mutex
	names   map[string]int
	batches *Batcher[string]
}

func (r *Registry) RegisterHeld(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name]++
	r.batches.AddHeld(name) // want `r.mu held across call of \(\*Batcher\)\.AddHeld, which blocks: \(\*Batcher\)\.AddHeld -> channel send \(locked at generics.go:\d+, released by defer\)`
}

// Register hands the name on after unlocking.
func (r *Registry) Register(name string) {
	r.mu.Lock()
	r.names[name]++
	r.mu.Unlock()
	r.batches.AddHeld(name)
}

// queueOpts configures a generic queue through options that only this
// package can write: their parameter is its unexported config.
type queueOpts[T any] struct {
	maxLen int
	size   func(T) int
}

type queueOpt[T any] func(*queueOpts[T])

func withMaxLen[T any](n int) queueOpt[T] {
	return func(o *queueOpts[T]) { o.maxLen = n }
}

type queue[T any] struct {
	opts  queueOpts[T]
	elems []T
}

func newQueue[T any](opts ...queueOpt[T]) *queue[T] {
	q := &queue[T]{}
	for _, opt := range opts {
		opt(&q.opts)
	}
	return q
}

// Server makes its queues under its lock; the options it passes are the
// package's own. Not a finding.
type Server struct {
	mu     sync.Mutex
	queues map[string]*queue[string]
}

func (s *Server) AddQueue(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queues[name] = newQueue(withMaxLen[string](128))
}

// Hook is an option type whose values users write.
type Hook[T any] func(T)

type hookedQueue[T any] struct {
	hooks []Hook[T]
	elems []T
}

func newHookedQueue[T any](hooks ...Hook[T]) *hookedQueue[T] {
	q := &hookedQueue[T]{hooks: hooks}
	for _, h := range hooks {
		var zero T
		h(zero)
	}
	return q
}

// AddHooked runs the users' hooks under the lock.
func (s *Server) AddHooked(name string, hooks ...Hook[string]) *hookedQueue[string] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return newHookedQueue(hooks...) // want `s.mu held across call of newHookedQueue, which calls func value hooks\[i\] \(newHookedQueue -> func value hooks\[i\]\) \(locked at generics.go:\d+, released by defer\)$`
}

// SizedCache charges each entry's key against its budget with a sizer its
// users supply: a calculation over the key. A note.
type SizedCache[K comparable, V ~[]byte | ~string] struct {
	mu      sync.Mutex
	size    uint64
	keySize func(K) uint64
	items   map[K]V
}

func NewSizedCache[K comparable, V ~[]byte | ~string](keySize func(K) uint64) *SizedCache[K, V] {
	return &SizedCache[K, V]{keySize: keySize, items: map[K]V{}}
}

func (c *SizedCache[K, V]) Add(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
	c.size += uint64(len(v))
	if c.keySize != nil {
		c.size += c.keySize(k) // want `c.mu held across call of func value c.keySize \(locked at generics.go:\d+, released by defer\) \(plausible: a func value of type func\(K\) uint64 computes a number\)`
	}
}

// HookedCache tells its users of each entry added, with the cache locked.
type HookedCache[K comparable, V any] struct {
	mu    sync.Mutex
	onAdd func(K) error
	items map[K]V
}

func NewHookedCache[K comparable, V any](onAdd func(K) error) *HookedCache[K, V] {
	return &HookedCache[K, V]{onAdd: onAdd, items: map[K]V{}}
}

func (c *HookedCache[K, V]) Add(k K, v V) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
	return c.onAdd(k) // want `c.mu held across call of func value c.onAdd \(locked at generics.go:\d+, released by defer\)$`
}
