package formatting

import (
	"fmt"
	"sync"
)

// Tracer collects a request's log lines: Infof is a printf wrapper, so
// it formats its arguments as fmt.Sprintf does.
type Tracer struct {
	lines []string
}

// Infof records a formatted line.
func (t *Tracer) Infof(format string, args ...any) {
	t.lines = append(t.lines, fmt.Sprintf(format, args...))
}

// RangeCache caches range descriptors and describes itself.
type RangeCache struct {
	mu     sync.RWMutex
	ranges map[string]string
	trace  *Tracer
}

// String read-locks the cache to list it.
func (c *RangeCache) String() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return fmt.Sprint(len(c.ranges), " ranges")
}

// Insert is the cache's writer.
func (c *RangeCache) Insert(key, desc string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ranges[key] = desc
}

// LookupTraced traces the cache while holding its read lock: %s calls
// String, which read-locks c.mu again, and a queued Insert deadlocks both.
func (c *RangeCache) LookupTraced(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.trace.Infof("lookup %s in %s", key, c) // want `c.mu read-locked again through call of \(\*RangeCache\).String \(\(\*Tracer\).Infof formats c\) while held \(locked at wrappers.go:43\)`
	return c.ranges[key]
}

// Lookup is its twin: it traces with the cache's text built by a helper
// that expects the lock held.
func (c *RangeCache) Lookup(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.trace.Infof("lookup %s in %s", key, c.stringLocked())
	return c.ranges[key]
}

func (c *RangeCache) stringLocked() string { return fmt.Sprint(len(c.ranges), " ranges") }
