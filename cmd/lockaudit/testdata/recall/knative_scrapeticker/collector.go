// Package knative_scrapeticker is modelled on a Knative serving
// autoscaler metric-collector bug: the per-revision collection goroutine
// takes the collector's mutex once, before its ticker loop, and keeps it
// for the life of the loop, waiting on the ticker and on the context with
// the mutex held. Record, called on the request path for every request,
// and Stable, called by the autoscaler, block until the revision is
// deleted.
package knative_scrapeticker

import (
	"context"
	"sync"
	"time"
)

// Collector aggregates in-flight request counts into per-tick buckets.
// Buggy version.
type Collector struct {
	mu       sync.Mutex
	inflight int
	buckets  []float64
	maxLen   int
}

// NewCollector keeps the last maxLen buckets.
func NewCollector(maxLen int) *Collector { return &Collector{maxLen: maxLen} }

// Record adjusts the in-flight count by delta.
func (c *Collector) Record(delta int) {
	c.mu.Lock()
	c.inflight += delta
	c.mu.Unlock()
}

// Stable returns the mean concurrency over the window.
func (c *Collector) Stable() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buckets) == 0 {
		return 0
	}
	var sum float64
	for _, b := range c.buckets {
		sum += b
	}
	return sum / float64(len(c.buckets))
}

// Run collects a bucket every interval until ctx is done.
func (c *Collector) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		select { // BUG: waits for the next tick with c.mu held
		case <-ctx.Done():
			return
		case <-t.C:
			c.buckets = append(c.buckets, float64(c.inflight))
			if len(c.buckets) > c.maxLen {
				c.buckets = c.buckets[1:]
			}
		}
	}
}

// CollectorFixed is the fixed version: the mutex is taken only to fold
// the tick into the buckets.
type CollectorFixed struct {
	mu       sync.Mutex
	inflight int
	buckets  []float64
	maxLen   int
}

// NewCollectorFixed keeps the last maxLen buckets.
func NewCollectorFixed(maxLen int) *CollectorFixed { return &CollectorFixed{maxLen: maxLen} }

// Record adjusts the in-flight count by delta.
func (c *CollectorFixed) Record(delta int) {
	c.mu.Lock()
	c.inflight += delta
	c.mu.Unlock()
}

// Stable returns the mean concurrency over the window.
func (c *CollectorFixed) Stable() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buckets) == 0 {
		return 0
	}
	var sum float64
	for _, b := range c.buckets {
		sum += b
	}
	return sum / float64(len(c.buckets))
}

// Run collects a bucket every interval until ctx is done.
func (c *CollectorFixed) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.mu.Lock()
			c.buckets = append(c.buckets, float64(c.inflight))
			if len(c.buckets) > c.maxLen {
				c.buckets = c.buckets[1:]
			}
			c.mu.Unlock()
		}
	}
}
