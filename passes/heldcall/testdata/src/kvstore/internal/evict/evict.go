// Package evict holds the cache's eviction policies. It is internal: only
// the kvstore module can implement Policy, and all its implementations
// are in-memory bookkeeping.
package evict

import (
	"container/list"
	"sync"
)

// Policy orders keys for eviction.
type Policy interface {
	Touch(key string)
	Victim() (string, bool)
}

// LRU evicts the least recently used key.
type LRU struct {
	order *list.List
	elems map[string]*list.Element
}

func NewLRU() *LRU { return &LRU{order: list.New(), elems: map[string]*list.Element{}} }

func (l *LRU) Touch(key string) {
	if e, ok := l.elems[key]; ok {
		l.order.MoveToFront(e)
		return
	}
	l.elems[key] = l.order.PushFront(key)
}

func (l *LRU) Victim() (string, bool) {
	e := l.order.Back()
	if e == nil {
		return "", false
	}
	l.order.Remove(e)
	key := e.Value.(string)
	delete(l.elems, key)
	return key, true
}

// LFU evicts the least frequently used key.
type LFU struct{ counts map[string]int }

func NewLFU() *LFU { return &LFU{counts: map[string]int{}} }

func (l *LFU) Touch(key string) { l.counts[key]++ }

func (l *LFU) Victim() (string, bool) {
	best, n := "", -1
	for k, c := range l.counts {
		if n < 0 || c < n {
			best, n = k, c
		}
	}
	delete(l.counts, best)
	return best, n >= 0
}

// Tracker counts evictions and tells the module's cache about them through
// OnEvict, an exported field of an internal package: only the module sets
// it, so the call is plausible foreign code, not the users'.
type Tracker struct {
	mu      sync.Mutex
	evicted int
	OnEvict func(key string)
}

func (t *Tracker) Evicted(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.evicted++
	t.OnEvict(key) // want `t.mu held across call of func value t.OnEvict \(locked at evict.go:72, released by defer\) \(plausible: the func value can be exported field OnEvict of an internal package, which the module sets\)`
}
