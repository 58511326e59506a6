// Package store is a small persistent store whose functions the summaries
// describe: lock wrappers, blocking helpers and callback runners.
package store

import (
	"os"
	"sync"
	"time"
)

type Store struct {
	mu      sync.Mutex
	rw      sync.RWMutex
	f       *os.File
	pending [][]byte
	events  chan string
}

func (s *Store) Lock() { // want Lock:`lockfacts\(acquires \(\*store.Store\).mu; locks \(\*store.Store\).mu; takes p0.mu\)`
	s.mu.Lock()
}

func (s *Store) Unlock() { // want Unlock:`lockfacts\(releases \(\*store.Store\).mu\)`
	s.mu.Unlock()
}

func (s *Store) RLockIndex() { // want RLockIndex:`lockfacts\(acquires \(\*store.Store\).rw; locks \(\*store.Store\).rw \(read\); takes p0.rw\)`
	s.rw.RLock()
}

// Flush blocks: it syncs the file.
func (s *Store) Flush() error { // want Flush:`lockfacts\(blocks: store.\(\*Store\).Flush -> os.\(\*File\).Sync\)`
	return s.f.Sync()
}

// Commit blocks through Flush, and takes the lock.
func (s *Store) Commit() error { // want Commit:`lockfacts\(blocks: store.\(\*Store\).Commit -> store.\(\*Store\).Flush -> os.\(\*File\).Sync; locks \(\*store.Store\).mu; takes p0.mu\)`
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Flush()
}

// Publish sends on an unbuffered channel.
func (s *Store) Publish(ev string) { // want Publish:`lockfacts\(blocks: store.\(\*Store\).Publish -> channel send\)`
	s.events <- ev
}

// Each calls its callback for every pending record.
func (s *Store) Each(fn func([]byte)) { // want Each:`lockfacts\(calls params\)`
	for _, p := range s.pending {
		fn(p)
	}
}

// Backoff sleeps.
func Backoff(n int) { // want Backoff:`lockfacts\(blocks: store.Backoff -> time.Sleep\)`
	time.Sleep(time.Duration(n) * time.Millisecond)
}

// Size is pure: no fact.
func (s *Store) Size() int { return len(s.pending) }

// Notify hands off on a buffered channel it created: not blocking.
type Notifier struct{ ready chan struct{} }

func NewNotifier() *Notifier { return &Notifier{ready: make(chan struct{}, 1)} }

func (n *Notifier) Notify() {
	n.ready <- struct{}{}
}

// AuditLog receives audit lines; implementations write to disk or the network.
type AuditLog interface{ Write(p []byte) (int, error) }

// Cache runs an eviction hook and writes an audit log through interfaces.
type Cache struct {
	onEvict func(key string)
	audit   AuditLog
	items   map[string][]byte
}

func (c *Cache) evict(key string) { // want evict:`lockfacts\(runs func value c.onEvict\)`
	delete(c.items, key)
	c.onEvict(key)
}

func (c *Cache) record(line string) { // want record:`lockfacts\(runs interface method store.AuditLog.Write\)`
	c.audit.Write([]byte(line))
}
