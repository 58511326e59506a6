// Package storeclient is a client library for a remote blob store. The
// crosspkg tests import it: its functions' summaries (may block, calls its
// func parameter, is a lock wrapper) reach the importer as facts. Nothing
// in it holds a lock across a blocking call.
package storeclient

import (
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

// Client talks to the blob store over HTTP.
type Client struct {
	http *http.Client
	base string

	mu    sync.Mutex
	calls int
}

// Fetch downloads a blob.
func (c *Client) Fetch(key string) ([]byte, error) {
	resp, err := c.http.Get(c.base + "/" + key)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	c.count()
	return io.ReadAll(resp.Body)
}

func (c *Client) count() {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
}

// Calls returns the number of requests made; it only takes the client's
// own lock.
func (c *Client) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// Backoff waits before the given retry attempt.
func Backoff(attempt int) {
	time.Sleep(time.Duration(attempt*attempt) * 10 * time.Millisecond)
}

// Each calls fn for every key.
func Each(keys []string, fn func(key string)) {
	for _, k := range keys {
		fn(k)
	}
}

// Guard is a lock that callers take through methods.
type Guard struct {
	mu sync.Mutex
}

// Acquire takes the guard.
func (g *Guard) Acquire() { g.mu.Lock() }

// Release releases the guard.
func (g *Guard) Release() { g.mu.Unlock() }

// Prefetcher holds downloaded blobs until they are taken.
type Prefetcher struct {
	mu    sync.Mutex
	ready *sync.Cond
	blobs [][]byte
}

func NewPrefetcher() *Prefetcher {
	p := &Prefetcher{}
	p.ready = sync.NewCond(&p.mu)
	return p
}

// Next waits for a blob; the wait releases p.mu only.
func (p *Prefetcher) Next() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.blobs) == 0 {
		p.ready.Wait()
	}
	b := p.blobs[0]
	p.blobs = p.blobs[1:]
	return b
}

// Corrupt records that the store at dir is corrupt, so that the next start
// repairs it, and panics: the process cannot go on with a corrupt store.
func Corrupt(dir string, err error) {
	markRepair(dir)
	panic("storeclient: corrupt store: " + err.Error())
}

// Damaged records that the store at dir needs a repair, and goes on.
func Damaged(dir string, err error) {
	markRepair(dir)
}

// markRepair creates the repair marker.
func markRepair(dir string) {
	if f, err := os.Create(dir + "/NEEDS_REPAIR"); err == nil {
		f.Close()
	}
}
