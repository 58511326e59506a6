// Package transitive holds calls, made while a lock is held, of functions
// of the same package that block or run foreign code further down, each
// next to its correct twin.
package transitive

import (
	"os"
	"sync"
	"time"
)

// KV is a key-value store with a write-ahead log.
type KV struct {
	mu   sync.Mutex
	data map[string]string
	wal  *os.File
	buf  []byte
}

func (s *KV) fsync() error { return s.wal.Sync() }

func (s *KV) commit() error {
	if _, err := s.wal.Write(s.buf); err != nil {
		return err
	}
	s.buf = s.buf[:0]
	return s.fsync()
}

// PutHeld commits to disk through two helpers with the store locked.
func (s *KV) PutHeld(k, v string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[k] = v
	s.buf = append(s.buf, k+"="+v+"\n"...)
	return s.commit() // want `s.mu held across call of \(\*KV\).commit, which blocks: \(\*KV\).commit -> os.\(\*File\).Write \(locked at store.go:32, released by defer\)`
}

// Put updates memory under the lock; a background loop commits.
func (s *KV) Put(k, v string) {
	s.mu.Lock()
	s.data[k] = v
	s.buf = append(s.buf, k+"="+v+"\n"...)
	s.mu.Unlock()
}

// SyncHeld calls the fsync helper with the store locked.
func (s *KV) SyncHeld() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fsync() // want `s.mu held across call of \(\*KV\).fsync, which blocks: \(\*KV\).fsync -> os.\(\*File\).Sync \(locked at store.go:49, released by defer\)`
}

func (s *KV) Sync() error {
	s.mu.Lock()
	wal := s.wal
	s.mu.Unlock()
	return wal.Sync()
}

// Limiter paces outgoing requests.
type Limiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

func (l *Limiter) pause(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}

// WaitHeld sleeps until the slot with the limiter locked: callers queue on
// the mutex instead of computing their own slot.
func (l *Limiter) WaitHeld() {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	l.pause(l.next.Sub(now)) // want `l.mu held across call of \(\*Limiter\).pause, which blocks: \(\*Limiter\).pause -> time.Sleep \(locked at store.go:77, released by defer\)`
	l.next = l.next.Add(l.interval)
}

// Wait reserves a slot under the lock and sleeps after.
func (l *Limiter) Wait() {
	l.mu.Lock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	d := l.next.Sub(now)
	l.next = l.next.Add(l.interval)
	l.mu.Unlock()
	l.pause(d)
}

// notifyAll sends the event to every watcher channel.
func notifyAll(chs []chan string, ev string) {
	for _, ch := range chs {
		ch <- ev
	}
}

// Leases hands out leases and tells watchers when one expires.
type Leases struct {
	mu       sync.Mutex
	expiry   map[string]time.Time
	watchers []chan string
}

func (l *Leases) ExpireHeld(id string) {
	l.mu.Lock()
	delete(l.expiry, id)
	notifyAll(l.watchers, id) // want `l.mu held across call of notifyAll, which blocks: notifyAll -> channel send \(locked at store.go:115\)`
	l.mu.Unlock()
}

func (l *Leases) Expire(id string) {
	l.mu.Lock()
	delete(l.expiry, id)
	ws := append([]chan string(nil), l.watchers...)
	l.mu.Unlock()
	notifyAll(ws, id)
}

// Stats counts operations behind its own mutex.
type Stats struct {
	mu  sync.Mutex
	ops map[string]int
}

func (s *Stats) incr(op string) {
	s.mu.Lock()
	s.ops[op]++
	s.mu.Unlock()
}

// Table is a routing table that keeps statistics.
type Table struct {
	mu     sync.RWMutex
	routes map[string]string
	stats  *Stats
	flush  chan struct{}
}

// Route calls a helper that only takes another lock: nested locking is
// lockorder's business, not a heldcall finding.
func (t *Table) Route(host string) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	t.stats.incr("route")
	return t.routes[host]
}

// writeBack blocks on the flush channel.
func (t *Table) writeBack() {
	<-t.flush
}

// Update starts the blocking write-back on its own goroutine: the lock is
// not held across it.
func (t *Table) Update(host, backend string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.routes[host] = backend
	go t.writeBack()
}
