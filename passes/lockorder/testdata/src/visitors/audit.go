// want package:"3 lock-order edges"
package visitors

import "sync"

// An audit log lets its readers visit its entries under the log's lock;
// the store records every write in the log under the store's lock. A
// replay that applies entries to the store from inside the visit takes
// the store's lock under the log's: the opposite order of every write.
// The twin copies the entries out first (Entries) and applies them
// after the log's lock is released.

type AuditLog struct {
	mu      sync.Mutex
	entries []string
}

func (l *AuditLog) Record(e string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e)
}

func (l *AuditLog) visit(f func(string)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.entries {
		f(e) // want `\(\*visitors.Store\).mu locked through call of func value f \(\(\*Store\).apply\) while holding l.mu \(locked at audit.go:25\); .* \(plausible: the cycle is proven only between the lock classes .*\)`
	}
}

// Entries copies the entries out under the lock.
func (l *AuditLog) Entries() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.entries...)
}

type Store struct {
	mu   sync.Mutex
	data map[string]bool
	log  *AuditLog
}

func (s *Store) Put(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[k] = true
	s.log.Record("put " + k) // want `s.log.mu locked through call of \(\*AuditLog\).Record while holding s.mu \(locked at audit.go:46\); the opposite order is taken at audit.go:\d+: lock-order inversion`
}

func (s *Store) apply(e string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[e] = true
}

// ReplayInPlace applies each entry from inside the log's visit.
func (s *Store) ReplayInPlace() {
	s.log.visit(s.apply) // want `s.mu locked through call of \(\*AuditLog\).visit with its func argument while holding s.log.mu \(locked at audit.go:25\); the opposite order is taken at audit.go:49: lock-order inversion`
}

// Replay copies the entries out, then applies them.
func (s *Store) Replay() {
	for _, e := range s.log.Entries() {
		s.apply(e)
	}
}
