// want package:"2 lock-order edges"
package lookups

import "sync"

// A store keeps its ranges in a map behind a lookup helper. Splitting a
// range locks the store, finds the range through the helper and locks it;
// a range that reports its size locks itself, then its store through its
// back-pointer. The range found is an element of the store's map, so the
// two orders deadlock on the same store and range (cockroach#10214's
// shape). The twin releases the store before it locks the range.

type Store struct {
	mu     sync.Mutex
	ranges map[int]*Range
	bytes  int
}

type Range struct {
	mu    sync.Mutex
	id    int
	size  int
	store *Store
}

// lookup returns the range with id, or nil.
func (s *Store) lookup(id int) *Range {
	r, ok := s.ranges[id]
	if !ok {
		return nil
	}
	return r
}

// Split halves the range under the store's lock.
func (s *Store) Split(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.lookup(id)
	if r == nil {
		return
	}
	r.mu.Lock() // want `r.mu locked while holding s.mu \(locked at ranges.go:37\); the opposite order is taken at ranges.go:\d+: lock-order inversion`
	r.size /= 2
	r.mu.Unlock()
}

// Grow adds to the range's size and to its store's total.
func (r *Range) Grow(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.size += n
	r.store.mu.Lock() // want `r.store.mu locked while holding r.mu \(locked at ranges.go:50\); the opposite order is taken at ranges.go:43: lock-order inversion`
	r.store.bytes += n
	r.store.mu.Unlock()
}

// Shrink is Split's twin: it finds the range under the store's lock and
// halves it after releasing the store.
func (s *Store) Shrink(id int) {
	s.mu.Lock()
	r := s.lookup(id)
	s.mu.Unlock()
	if r == nil {
		return
	}
	r.mu.Lock()
	r.size /= 2
	r.mu.Unlock()
}
