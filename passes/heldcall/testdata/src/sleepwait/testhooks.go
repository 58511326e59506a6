package sleepwait

import (
	"sync"
	"time"
)

// Ticker counts ticks; tests can stall it.
type Ticker struct {
	mu    sync.Mutex
	ticks int
}

// StallForTesting holds the lock for d so that a test can observe callers
// queueing: a hook for tests, a note.
func (t *Ticker) StallForTesting(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	time.Sleep(d) // want `t.mu held across call of time.Sleep \(locked at testhooks.go:\d+, released by defer\) \(plausible: test-support code \(StallForTesting\)\)`
	t.ticks++
}

// Throttle sleeps under the lock on every call: production code, a
// warning.
func (t *Ticker) Throttle(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	time.Sleep(d) // want `t.mu held across call of time.Sleep \(locked at testhooks.go:\d+, released by defer\)`
	t.ticks++
}

// ThrottleFixed sleeps with the lock released.
func (t *Ticker) ThrottleFixed(d time.Duration) {
	time.Sleep(d)
	t.mu.Lock()
	t.ticks++
	t.mu.Unlock()
}
