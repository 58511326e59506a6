// Package deferloops holds locks taken in a loop and released by a defer,
// which runs only when the function returns, next to the loops that
// release each turn's lock in time.
package deferloops

import "sync"

type item struct {
	mu   sync.Mutex
	hits int
}

// Stats counts hits per key under its lock.
type Stats struct {
	mu    sync.Mutex
	hits  map[string]int
	items []*item
}

// AddAll defers each turn's unlock to its return: the second turn locks
// s.mu again while the first still holds it.
func (s *Stats) AddAll(keys []string) {
	for _, k := range keys {
		s.mu.Lock() // want `s.mu locked in a loop whose defer releases it only when AddAll returns: the next iteration locks it again \(locked at deferloops.go:\d+\)`
		defer s.mu.Unlock()
		s.hits[k]++
	}
}

// AddEach releases each turn's lock when the turn's closure returns.
func (s *Stats) AddEach(keys []string) {
	for _, k := range keys {
		func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.hits[k]++
		}()
	}
}

// TouchAll holds every item's own lock until it returns: a lock of its own
// each turn.
func (s *Stats) TouchAll() {
	for _, it := range s.items {
		it.mu.Lock()
		defer it.mu.Unlock()
		it.hits++
	}
}

// AddFirst takes the lock on the first turn only and returns.
func (s *Stats) AddFirst(keys []string) {
	for _, k := range keys {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.hits[k]++
		return
	}
}

// TryAddAll gives up on a turn whose TryLock fails: it never waits.
func (s *Stats) TryAddAll(keys []string) {
	for _, k := range keys {
		if !s.mu.TryLock() {
			continue
		}
		defer s.mu.Unlock()
		s.hits[k]++
	}
}
