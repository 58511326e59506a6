// Package trylock holds TryLock and TryRLock: the lock is held on the
// branch where the try succeeded, and only there. Each positive is next to
// its correct twin.
package trylock

import (
	"sync"
	"time"
)

// Metrics aggregates counters and flushes them opportunistically.
type Metrics struct {
	mu      sync.Mutex
	counts  map[string]int64
	publish func(map[string]int64)
}

// MaybeFlushHeld publishes inside the successful try.
func (m *Metrics) MaybeFlushHeld() {
	if m.mu.TryLock() {
		m.publish(m.counts) // want `m.mu held across call of func value m.publish \(locked at trylock.go:20\) \(plausible: the func value can be field publish, which the package never sets\)`
		m.counts = make(map[string]int64)
		m.mu.Unlock()
	}
}

// MaybeFlush swaps the counters out inside the try and publishes after.
func (m *Metrics) MaybeFlush() {
	if m.mu.TryLock() {
		counts := m.counts
		m.counts = make(map[string]int64)
		m.mu.Unlock()
		m.publish(counts)
	}
}

// FlushOrSkip publishes on the else branch, where the try failed and the
// lock is not held: not a finding.
func (m *Metrics) FlushOrSkip(snapshot map[string]int64) {
	if m.mu.TryLock() {
		m.counts = make(map[string]int64)
		m.mu.Unlock()
	} else {
		m.publish(snapshot)
	}
}

// Compactor compacts a segment store when nobody else is.
type Compactor struct {
	mu       sync.Mutex
	segments []string
	merge    func(a, b string) string
	done     chan string
}

// CompactHeld returns early when the try fails; past that, the lock is
// held until the deferred unlock.
func (c *Compactor) CompactHeld() {
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	for len(c.segments) > 1 {
		merged := c.merge(c.segments[0], c.segments[1]) // want `c.mu held across call of func value c.merge \(locked at trylock.go:59, released by defer\) \(plausible: the func value can be field merge, which the package never sets\)`
		c.segments = append([]string{merged}, c.segments[2:]...)
	}
	c.done <- c.segments[0] // want `c.mu held across channel send \(locked at trylock.go:59, released by defer\)`
}

// Compact takes the segment list under the try and merges without it.
func (c *Compactor) Compact() {
	if !c.mu.TryLock() {
		return
	}
	segs := c.segments
	merge := c.merge
	c.mu.Unlock()
	if len(segs) == 0 {
		return
	}
	for len(segs) > 1 {
		segs = append([]string{merge(segs[0], segs[1])}, segs[2:]...)
	}
	c.mu.Lock()
	c.segments = segs
	c.mu.Unlock()
	c.done <- segs[0]
}

// Snapshot is a point-in-time copy of a read-mostly table.
type Snapshot struct {
	mu    sync.RWMutex
	rows  map[string]string
	spill func(map[string]string)
}

// SpillHeld spills under a successful TryRLock.
func (s *Snapshot) SpillHeld() bool {
	if !s.mu.TryRLock() {
		return false
	}
	defer s.mu.RUnlock()
	s.spill(s.rows) // want `s.mu held across call of func value s.spill \(locked at trylock.go:99, released by defer\) \(plausible: the func value can be field spill, which the package never sets\)`
	return true
}

func (s *Snapshot) Spill() bool {
	if !s.mu.TryRLock() {
		return false
	}
	cp := make(map[string]string, len(s.rows))
	for k, v := range s.rows {
		cp[k] = v
	}
	s.mu.RUnlock()
	s.spill(cp)
	return true
}

// RetryHeld spins on TryLock and sleeps with the lock held once it has it.
func (s *Snapshot) RetryHeld(k, v string) {
	for !s.mu.TryLock() {
		time.Sleep(time.Millisecond)
	}
	s.rows[k] = v
	time.Sleep(time.Millisecond) // want `s.mu held across call of time.Sleep \(locked at trylock.go:122\)`
	s.mu.Unlock()
}

// Retry spins on TryLock, sleeping only while it does not hold the lock.
func (s *Snapshot) Retry(k, v string) {
	for !s.mu.TryLock() {
		time.Sleep(time.Millisecond)
	}
	s.rows[k] = v
	s.mu.Unlock()
}
