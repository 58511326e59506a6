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

func NewNotifier() *Notifier { return &Notifier{ready: make(chan struct{}, 1)} } // want NewNotifier:`lockfacts\(returns a new object\)`

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

func (c *Cache) Evict(key string) { // want Evict:`lockfacts\(runs func value c.onEvict\)`
	delete(c.items, key)
	c.onEvict(key)
}

func (c *Cache) Record(line string) { // want Record:`lockfacts\(runs interface method store.AuditLog.Write\)`
	c.audit.Write([]byte(line))
}

// Only exported functions and methods get facts: other packages cannot
// call the rest.
func (c *Cache) evictLocked(key string) {
	c.onEvict(key)
}

func backoffTwice(n int) {
	Backoff(n)
	Backoff(n)
}

// shard is unexported, but its exported methods are reachable from other
// packages: Table embeds it. It holds nothing but its lock, so its lock
// has the class of the field that holds the shard (Table.shard), which
// the caller's argument names.
type shard struct{ mu sync.Mutex }

func (s *shard) Lock() { // want Lock:`lockfacts\(acquires p0.mu; takes p0.mu\)`
	s.mu.Lock()
}

func (s *shard) lock() {
	s.mu.Lock()
}

type Table struct {
	shard
	rows map[string]string
}

// Retry is generic: other packages call its instantiations.
func Retry[T any](n int, f func() T) T { // want Retry:`lockfacts\(blocks: store.Retry -> store.Backoff -> time.Sleep if p0==\(> 0\) is true; calls params\)`
	for range n {
		Backoff(n)
	}
	return f()
}
