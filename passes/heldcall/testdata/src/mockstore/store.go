// Package mockstore is a test double of a key-value store, shipped for
// other packages' tests: the test that drives it is the only goroutine
// that waits for its lock, so what it holds that lock across is a note,
// unless it is a deadlock.
package mockstore

import (
	"sync"
	"time"
)

// Store answers from memory after a configured latency.
type Store struct {
	mu      sync.Mutex
	data    map[string]string
	latency time.Duration
	events  chan string
	seen    map[string]int
}

// New starts the store's event loop.
func New(latency time.Duration) *Store {
	s := &Store{data: map[string]string{}, latency: latency, events: make(chan string, 8), seen: map[string]int{}}
	go s.loop()
	return s
}

// Get simulates the latency of a real store under the lock.
func (s *Store) Get(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	time.Sleep(s.latency) // want `s.mu held across call of time.Sleep \(locked at store.go:\d+, released by defer\) \(plausible: test-support code \(package mockstore\)\)`
	return s.data[key]
}

// GetFixed sleeps before it takes the lock.
func (s *Store) GetFixed(key string) string {
	time.Sleep(s.latency)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key]
}

func (s *Store) loop() {
	for key := range s.events {
		s.mu.Lock()
		s.seen[key]++
		s.mu.Unlock()
	}
}

// Put records an event under the lock that the event loop takes: a full
// buffer deadlocks the test, a warning even in a test double.
func (s *Store) Put(key, val string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[key] = val
	s.events <- key // want `s.mu held across channel send, whose receiver \(store.go:\d+\) takes s.mu before it receives again \(locked at store.go:\d+, released by defer\)`
}

// PutFixed records the event after it lets go of the lock.
func (s *Store) PutFixed(key, val string) {
	s.mu.Lock()
	s.data[key] = val
	s.mu.Unlock()
	s.events <- key
}
