package precision

import (
	"os"
	"sync"
	"sync/atomic"
)

// A reference-counted table cache. Each shard hands the readers it drops
// to a release loop of its own; the last Unref closes the shards.

type tableShard struct {
	mu        sync.Mutex
	readers   map[int]*tableReader
	releaseCh chan *tableReader
	releasing sync.WaitGroup
	loopExit  sync.WaitGroup
}

// A tableReader is opened by the first reader that wants it; the others
// wait until it is loaded.
type tableReader struct {
	loaded chan struct{}
	file   *os.File
	err    error
}

func (s *tableShard) init() {
	s.readers = map[int]*tableReader{}
	s.releaseCh = make(chan *tableReader)
	s.loopExit.Add(1)
	go s.releaseLoop()
}

func (s *tableShard) releaseLoop() {
	defer s.loopExit.Done()
	for r := range s.releaseCh {
		<-r.loaded
		if r.file != nil {
			r.file.Close()
		}
		s.releasing.Done()
	}
}

func (s *tableShard) get(id int, path string) (*os.File, error) {
	s.mu.Lock()
	r, ok := s.readers[id]
	if !ok {
		r = &tableReader{loaded: make(chan struct{})}
		s.readers[id] = r
	}
	s.mu.Unlock()
	if !ok {
		r.file, r.err = os.Open(path)
		close(r.loaded)
	}
	<-r.loaded
	return r.file, r.err
}

// close drops every reader and waits for the release loop, under the
// shard's lock. Only the last Unref calls it: nobody else can be waiting
// for the lock, and the release loop never takes it. Not a finding.
func (s *tableShard) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.readers {
		s.releasing.Add(1)
		s.releaseCh <- r
		delete(s.readers, id)
	}
	close(s.releaseCh)
	s.releasing.Wait()
	s.loopExit.Wait()
}

// TableCache is shared by the stores that hold a reference to it.
type TableCache struct {
	refs   atomic.Int32
	shards []*tableShard
}

func NewTableCache(n int) *TableCache {
	c := &TableCache{shards: make([]*tableShard, n)}
	c.refs.Store(1)
	for i := range c.shards {
		c.shards[i] = &tableShard{}
		c.shards[i].init()
	}
	return c
}

func (c *TableCache) Ref() { c.refs.Add(1) }

func (c *TableCache) Get(id int, path string) (*os.File, error) {
	return c.shards[id%len(c.shards)].get(id, path)
}

// Unref drops a reference; the last one closes the shards.
func (c *TableCache) Unref() {
	if c.refs.Add(-1) == 0 {
		for i := range c.shards {
			c.shards[i].close()
		}
	}
}

// The same cache, whose shards' release loop counts what it released
// under the shard's lock: the last Unref's wait for it, under that lock,
// deadlocks.

type countingShard struct {
	mu        sync.Mutex
	released  int
	releaseCh chan *os.File
	loopExit  sync.WaitGroup
}

func (s *countingShard) init() {
	s.releaseCh = make(chan *os.File, 16)
	s.loopExit.Add(1)
	go s.releaseLoop()
}

func (s *countingShard) releaseLoop() {
	defer s.loopExit.Done()
	for f := range s.releaseCh {
		f.Close()
		s.mu.Lock()
		s.released++
		s.mu.Unlock()
	}
}

func (s *countingShard) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.releaseCh)
	s.loopExit.Wait() // want `s.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at released.go:137, released by defer\)`
}

// CountingCache is TableCache with counting shards.
type CountingCache struct {
	refs   atomic.Int32
	shards [4]*countingShard
}

func NewCountingCache() *CountingCache {
	c := &CountingCache{}
	c.refs.Store(1)
	for i := range c.shards {
		c.shards[i] = &countingShard{}
		c.shards[i].init()
	}
	return c
}

func (c *CountingCache) Unref() {
	if c.refs.Add(-1) == 0 {
		for i := range c.shards {
			c.shards[i].close()
		}
	}
}

// A file handle shared by readers, counted under a lock of its own. The
// last release syncs and closes the file under the handle's lock: no
// reader is left to wait for it. Not a finding.

type sharedFile struct {
	refMu sync.Mutex
	refs  int
	mu    sync.Mutex
	file  *os.File
}

func OpenShared(path string) (*sharedFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &sharedFile{refs: 1, file: f}, nil
}

func (h *sharedFile) Acquire() {
	h.refMu.Lock()
	h.refs++
	h.refMu.Unlock()
}

func (h *sharedFile) Release() {
	h.refMu.Lock()
	h.refs--
	last := h.refs == 0
	h.refMu.Unlock()
	if last {
		h.closeFile()
	}
}

func (h *sharedFile) closeFile() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.file.Sync()
	h.file.Close()
}

// Flush syncs the file while readers may hold it: they wait.
func (h *sharedFile) Flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.file.Sync() // want `h.mu held across call of os.\(\*File\).Sync \(locked at released.go:211, released by defer\)`
}

// A reader pool whose shards are the table cache's, but which drops them
// while it is live: its users wait on a shard's lock while Reset drains
// the shard's release loop.

type poolShard struct {
	mu        sync.Mutex
	readers   map[int]*tableReader
	releaseCh chan *tableReader
	releasing sync.WaitGroup
}

func (s *poolShard) init() {
	s.readers = map[int]*tableReader{}
	s.releaseCh = make(chan *tableReader)
	go s.releaseLoop()
}

func (s *poolShard) releaseLoop() {
	for r := range s.releaseCh {
		<-r.loaded
		if r.file != nil {
			r.file.Close()
		}
		s.releasing.Done()
	}
}

func (s *poolShard) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.readers {
		s.releasing.Add(1)
		s.releaseCh <- r // want `s.mu held across channel send`
		delete(s.readers, id)
	}
	s.releasing.Wait() // want `s.mu held across call of sync.\(\*WaitGroup\).Wait`
}

// ReaderPool is shared by its users until it is garbage.
type ReaderPool struct {
	refs   atomic.Int32
	shards []*poolShard
}

func NewReaderPool(n int) *ReaderPool {
	p := &ReaderPool{shards: make([]*poolShard, n)}
	p.refs.Store(1)
	for i := range p.shards {
		p.shards[i] = &poolShard{}
		p.shards[i].init()
	}
	return p
}

// Reset drops every shard's readers, while other goroutines use them.
func (p *ReaderPool) Reset() {
	for i := range p.shards {
		p.shards[i].reset()
	}
}

// A log segment counted with the atomic functions, kept in its log's list
// of segments: a reader can look it up and raise its count again after
// it dropped to zero, so readers can be waiting for its lock while the
// last unref syncs the file.

type logSegment struct {
	refs int32
	mu   sync.Mutex
	file *os.File
}

func (s *logSegment) ref() { atomic.AddInt32(&s.refs, 1) }

func (s *logSegment) unref() {
	if n := atomic.AddInt32(&s.refs, -1); n > 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.file.Sync() // want `s.mu held across call of os.\(\*File\).Sync \(locked at released.go:\d+, released by defer\)`
	s.file.Close()
}

// SegmentSet hands its segments to readers, who ref and unref them.
type SegmentSet struct {
	mu   sync.Mutex
	segs []*logSegment
}

func (l *SegmentSet) Acquire(i int) *logSegment {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.segs[i]
	s.ref()
	return s
}

func (l *SegmentSet) Release(s *logSegment) { s.unref() }

// A mapped index shared by the readers that point to it, counted with the
// atomic functions: the last close unmaps it under its lock. Not a
// finding: only the readers' fields point to it.

type sharedIndex struct {
	refs int32
	mu   sync.Mutex
	file *os.File
}

func (x *sharedIndex) close() {
	if atomic.AddInt32(&x.refs, -1) != 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.file.Sync()
	x.file.Close()
}

// IndexReader reads through a shared index.
type IndexReader struct {
	index *sharedIndex
}

func (r *IndexReader) Clone() *IndexReader {
	atomic.AddInt32(&r.index.refs, 1)
	return &IndexReader{index: r.index}
}

func (r *IndexReader) Close() { r.index.close() }
