package precision

import (
	"os"
	"sync"
)

// A table cache closes readers in a background release loop. Closing the
// cache holds its lock, so that no release can be queued while it drains,
// and waits for the loop: the loop never takes the lock, and users must
// not use a cache they are closing.

type tableCache struct {
	mu        sync.Mutex
	releasing sync.WaitGroup
	loopExit  sync.WaitGroup
	releaseCh chan *os.File
	open      map[string]*os.File
}

func newTableCache() *tableCache {
	c := &tableCache{releaseCh: make(chan *os.File, 64), open: map[string]*os.File{}}
	c.loopExit.Add(1)
	go c.releaseLoop()
	return c
}

func (c *tableCache) releaseLoop() {
	defer c.loopExit.Done()
	for f := range c.releaseCh {
		c.release(f)
	}
}

func (c *tableCache) release(f *os.File) {
	f.Close()
	c.releasing.Done()
}

// Evict queues a reader for release.
func (c *tableCache) Evict(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.open[name]; ok {
		delete(c.open, name)
		c.releasing.Add(1)
		c.releaseCh <- f
	}
}

// Close drains the release loop under c.mu. Not a finding.
func (c *tableCache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.releaseCh)
	c.releasing.Wait()
	c.loopExit.Wait()
}

// Flush waits for the release loop under c.mu, but it is no teardown:
// every Evict waits for the disk.
func (c *tableCache) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.releasing.Wait() // want `c.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at teardown.go:63, released by defer\)`
}

var cachesMu sync.Mutex

// CloseAll closes every cache under the package's registry lock, which
// other goroutines take to find a cache: they wait for the drain.
func CloseAll(caches []*tableCache) {
	cachesMu.Lock()
	defer cachesMu.Unlock()
	for _, c := range caches {
		c.Close() // want `cachesMu held across call of \(\*tableCache\).Close, which blocks: \(\*tableCache\).Close -> sync.\(\*WaitGroup\).Wait \(locked at teardown.go:73, released by defer\)`
	}
}

// A segment writer whose flush loop takes the writer's lock for each
// flush: closing it under that lock deadlocks.

type segWriter struct {
	mu    sync.Mutex
	f     *os.File
	buf   []byte
	kick  chan struct{}
	wg    sync.WaitGroup
	close chan struct{}
}

func newSegWriter(f *os.File) *segWriter {
	w := &segWriter{f: f, kick: make(chan struct{}, 1), close: make(chan struct{})}
	w.wg.Add(1)
	go w.flushLoop()
	return w
}

func (w *segWriter) flushLoop() {
	defer w.wg.Done()
	for {
		select {
		case <-w.kick:
			w.mu.Lock()
			w.f.Write(w.buf) // want `w.mu held across call of os.\(\*File\).Write \(locked at teardown.go:104\)`
			w.buf = w.buf[:0]
			w.mu.Unlock()
		case <-w.close:
			return
		}
	}
}

// Close waits for the flush loop while holding w.mu, which the loop takes.
func (w *segWriter) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	close(w.close)
	w.wg.Wait() // want `w.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at teardown.go:116, released by defer\)`
}

// Stop releases w.mu before it waits. Not a finding.
func (w *segWriter) Stop() {
	w.mu.Lock()
	close(w.close)
	w.mu.Unlock()
	w.wg.Wait()
}

// A cache set closes its caches under its own lock: the wait is down in
// each cache's Close, on workers of the caches, while the set's users may
// still be looking caches up.
type cacheSet struct {
	mu     sync.Mutex
	caches []*tableCache
}

func (s *cacheSet) Get(i int) *tableCache {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caches[i]
}

func (s *cacheSet) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.caches {
		c.Close() // want `s.mu held across call of \(\*tableCache\).Close, which blocks: \(\*tableCache\).Close -> sync.\(\*WaitGroup\).Wait \(locked at teardown.go:145, released by defer\)`
	}
}
