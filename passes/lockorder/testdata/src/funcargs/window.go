package funcargs

import "sync"

// Schemas caches table schemas and fetches a missing one with its lock
// released.
type Schemas struct {
	mu     sync.Mutex
	tables map[string]string
	misses int
}

// Len locks the cache.
func (s *Schemas) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}

// fetch reads a schema from the catalog; it reports the cache's size, so
// it takes s.mu.
func (s *Schemas) fetch(table string) string {
	return table + ":" + string(rune('0'+s.Len()%10))
}

// unlocked runs f with s.mu released; the caller holds s.mu.
func (s *Schemas) unlocked(f func()) {
	s.mu.Unlock()
	f()
	s.mu.Lock()
}

// counted runs f and counts a miss; the caller holds s.mu.
func (s *Schemas) counted(f func()) {
	s.misses++
	f()
}

// Get fetches a missing schema inside the unlock window: fetch's s.mu is
// not held there.
func (s *Schemas) Get(table string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.tables[table]; ok {
		return v
	}
	var v string
	s.unlocked(func() { v = s.fetch(table) })
	s.tables[table] = v
	return v
}

// GetHeld fetches through a helper that keeps s.mu held.
func (s *Schemas) GetHeld(table string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.tables[table]; ok {
		return v
	}
	var v string
	s.counted(func() { v = s.fetch(table) }) // want `s.mu locked again through call of \(\*Schemas\).counted while held \(locked at window.go:55\)`
	s.tables[table] = v
	return v
}
