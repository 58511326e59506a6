package callbacks

import (
	"sync"
	"time"
)

// BackoffTable tracks retry deadlines; whether an entry has expired is the
// user's predicate over times, and what to do on a retry is the user's
// hook.
type BackoffTable struct {
	mu      sync.Mutex
	last    map[string]time.Time
	expired func(last time.Time, now time.Time, max time.Duration) bool
	onRetry func(id string)
	visible func(e *BackoffEntry) bool
}

// BackoffEntry is an entry as the user's visibility filter sees it.
type BackoffEntry struct {
	ID   string
	Last time.Time
}

// NewBackoffTable takes the user's predicate and hooks.
func NewBackoffTable(expired func(last, now time.Time, max time.Duration) bool, onRetry func(id string), visible func(e *BackoffEntry) bool) *BackoffTable {
	return &BackoffTable{last: map[string]time.Time{}, expired: expired, onRetry: onRetry, visible: visible}
}

// GC drops the expired entries under the lock: the predicate decides on
// copies of two times and a duration, a plausible callback.
func (b *BackoffTable) GC(now time.Time, max time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, last := range b.last {
		if b.expired(last, now, max) { // want `b.mu held across call of func value b.expired \(locked at backoff.go:\d+, released by defer\) \(plausible: a func value of type func\(last time.Time, now time.Time, max time.Duration\) bool is a predicate over values\)`
			delete(b.last, id)
		}
	}
}

// Retry runs the user's hook under the lock: a proven callback.
func (b *BackoffTable) Retry(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.last[id] = time.Now()
	b.onRetry(id) // want `b.mu held across call of func value b.onRetry \(locked at backoff.go:\d+, released by defer\)`
}

// Visible hands the user's filter a pointer to the entry, through which it
// can reach the table's state: a proven callback too.
func (b *BackoffTable) Visible(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := &BackoffEntry{ID: id, Last: b.last[id]}
	return b.visible(e) // want `b.mu held across call of func value b.visible \(locked at backoff.go:\d+, released by defer\)`
}

// RetryFixed runs the hook after it lets go of the lock.
func (b *BackoffTable) RetryFixed(id string) {
	b.mu.Lock()
	b.last[id] = time.Now()
	b.mu.Unlock()
	b.onRetry(id)
}
