package visitors

import (
	"sync"
	"time"
)

// A session table visits its sessions under its own lock. A sweeper that
// removes expired sessions from inside the visit locks the table again
// and hangs on the first expired one; its twin collects the ids and
// removes them after the visit.

type Session struct {
	ID      string
	Expires time.Time
}

type Table struct {
	mu       sync.Mutex
	sessions map[string]*Session
}

func (t *Table) Remove(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.sessions, id)
}

// forEach calls f for every session, holding the table's lock.
func (t *Table) forEach(f func(*Session)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.sessions {
		f(s)
	}
}

// SweepInPlace removes expired sessions from inside the visit.
func (t *Table) SweepInPlace(now time.Time) {
	t.forEach(func(s *Session) { // want `t.mu locked again through call of \(\*Table\).forEach with its func argument while held \(locked at sessions.go:31\)`
		if now.After(s.Expires) {
			t.Remove(s.ID)
		}
	})
}

// Sweep collects the expired ids under the visit and removes them after.
func (t *Table) Sweep(now time.Time) {
	var expired []string
	t.forEach(func(s *Session) {
		if now.After(s.Expires) {
			expired = append(expired, s.ID)
		}
	})
	for _, id := range expired {
		t.Remove(id)
	}
}

// Count visits read-only: nothing is locked again.
func (t *Table) Count() int {
	n := 0
	t.forEach(func(*Session) { n++ })
	return n
}
