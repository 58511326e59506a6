// Package crosspkg calls, while holding its own locks, functions of the
// storeclient package that block, call their func argument or take a lock
// for it: what it knows of them comes from facts. Each positive is next to
// its correct twin.
package crosspkg

import (
	"sync"

	"storeclient"
)

// BlobCache caches blobs from the store.
type BlobCache struct {
	mu     sync.Mutex
	client *storeclient.Client
	blobs  map[string][]byte
	onMiss func(key string)
	guard  storeclient.Guard
	pre    *storeclient.Prefetcher
}

// GetHeld downloads on a miss with the cache locked.
func (c *BlobCache) GetHeld(key string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.blobs[key]; ok {
		return b, nil
	}
	b, err := c.client.Fetch(key) // want `c.mu held across call of storeclient.\(\*Client\).Fetch, which blocks: storeclient.\(\*Client\).Fetch -> http.\(\*Client\).Get \(locked at crosspkg.go:25, released by defer\)`
	if err != nil {
		return nil, err
	}
	c.blobs[key] = b
	return b, nil
}

func (c *BlobCache) Get(key string) ([]byte, error) {
	c.mu.Lock()
	b, ok := c.blobs[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := c.client.Fetch(key)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.blobs[key] = b
	c.mu.Unlock()
	return b, nil
}

// RetryHeld backs off through the library with the cache locked.
func (c *BlobCache) RetryHeld(attempt int) {
	c.mu.Lock()
	storeclient.Backoff(attempt) // want `c.mu held across call of storeclient.Backoff, which blocks: storeclient.Backoff -> time.Sleep \(locked at crosspkg.go:57\)`
	c.mu.Unlock()
}

func (c *BlobCache) Retry(attempt int) {
	storeclient.Backoff(attempt)
	c.mu.Lock()
	c.blobs = make(map[string][]byte)
	c.mu.Unlock()
}

// MissAllHeld hands the miss hook to a library function that calls it.
func (c *BlobCache) MissAllHeld(keys []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	storeclient.Each(keys, c.onMiss) // want `c.mu held across call of storeclient.Each, which calls func value c.onMiss \(locked at crosspkg.go:71, released by defer\) \(plausible: the func value can be field onMiss, which the package never sets\)`
}

func (c *BlobCache) MissAll(keys []string) {
	c.mu.Lock()
	hook := c.onMiss
	c.mu.Unlock()
	storeclient.Each(keys, hook)
}

// Stats calls a library method that only takes its own lock: not a
// finding.
func (c *BlobCache) Stats() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.blobs), c.client.Calls()
}

// EvictGuardedHeld takes the library's lock wrapper and runs the hook
// before releasing it.
func (c *BlobCache) EvictGuardedHeld(key string) {
	c.guard.Acquire()
	delete(c.blobs, key)
	c.onMiss(key) // want `c.guard.mu held across call of func value c.onMiss \(locked at crosspkg.go:94\) \(plausible: the func value can be field onMiss, which the package never sets\)`
	c.guard.Release()
}

func (c *BlobCache) EvictGuarded(key string) {
	c.guard.Acquire()
	delete(c.blobs, key)
	c.guard.Release()
	c.onMiss(key)
}

// NextHeld waits for the prefetcher with the cache locked: the library's
// Cond wait releases its own lock, not c.mu.
func (c *BlobCache) NextHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.pre.Next() // want `c.mu held across call of storeclient.\(\*Prefetcher\).Next, which blocks: storeclient.\(\*Prefetcher\).Next -> \(\*sync.Cond\).Wait \(locked at crosspkg.go:110, released by defer\)`
	c.blobs[string(b[:8])] = b
}

func (c *BlobCache) Next() {
	b := c.pre.Next()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blobs[string(b[:8])] = b
}

// An index over the store's blobs. When its checksums do not match, the
// store is corrupt: storeclient.Corrupt marks it for repair and panics, a
// fact that crosses the package boundary.
type Index struct {
	mu   sync.Mutex
	dir  string
	sums map[string]uint32
}

// Verify dies on a mismatch, still holding ix.mu: the marker file is
// written on the way to the crash. Not a finding.
func (ix *Index) Verify(key string, sum uint32) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if want, ok := ix.sums[key]; ok && want != sum {
		storeclient.Corrupt(ix.dir, errMismatch)
	}
	ix.sums[key] = sum
}

// VerifyAndGoOn marks the store and keeps serving, with ix.mu held across
// the file creation every later Verify waits behind.
func (ix *Index) VerifyAndGoOn(key string, sum uint32) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if want, ok := ix.sums[key]; ok && want != sum {
		storeclient.Damaged(ix.dir, errMismatch) // want `ix.mu held across call of storeclient.Damaged, which blocks: storeclient.Damaged -> storeclient.markRepair -> os.Create \(locked at crosspkg.go:\d+, released by defer\)`
	}
	ix.sums[key] = sum
}

// errMismatch is the error of a checksum mismatch.
var errMismatch error = mismatchError{}

type mismatchError struct{}

func (mismatchError) Error() string { return "checksum mismatch" }
