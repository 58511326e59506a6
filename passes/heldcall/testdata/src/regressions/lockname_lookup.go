package regressions

import (
	"sync"
	"time"
)

// From wrappers/wrappers.go: a lock reached through a local variable
// loaded from a map is named as written (b.mu), not after the SSA value.

// bucket is one entry of a rate limiter; helpers take it by pointer.
type bucket struct {
	mu     sync.Mutex
	tokens int
	last   time.Time
}

func lockBucket(b *bucket)   { b.mu.Lock() }
func unlockBucket(b *bucket) { b.mu.Unlock() }

// Throttle waits for a token.
type Throttle struct {
	buckets map[string]*bucket
}

func (t *Throttle) TakeHeld(client string) {
	b := t.buckets[client]
	lockBucket(b)
	for b.tokens == 0 {
		time.Sleep(10 * time.Millisecond) // want `b.mu held across call of time.Sleep \(locked at lockname_lookup.go:28\)`
		b.tokens = int(time.Since(b.last) / time.Second)
	}
	b.tokens--
	unlockBucket(b)
}

func (t *Throttle) Take(client string) {
	b := t.buckets[client]
	for {
		lockBucket(b)
		if n := int(time.Since(b.last) / time.Second); n > b.tokens {
			b.tokens = n
		}
		if b.tokens > 0 {
			b.tokens--
			unlockBucket(b)
			return
		}
		unlockBucket(b)
		time.Sleep(10 * time.Millisecond)
	}
}
