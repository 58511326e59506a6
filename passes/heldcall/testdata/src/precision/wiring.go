package precision

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Engine is a storage engine whose Open wires its own method values into
// its sub-objects (a commit pipeline, a version set, a memtable with a
// release hook) before it recovers from disk under its lock.
type Engine struct {
	mu       sync.Mutex
	dir      string
	commit   *commitPipeline
	versions versionList
	mem      *memtable
	seq      uint64
}

// commitPipeline calls back into the engine that owns it.
type commitPipeline struct {
	apply func(b []byte) error
	write func(b []byte) error
}

func newCommitPipeline(apply, write func(b []byte) error) *commitPipeline {
	return &commitPipeline{apply: apply, write: write}
}

// versionList keeps a getter of its engine's sequence number.
type versionList struct {
	dir    string
	getSeq func() uint64
}

func (v *versionList) init(dir string, getSeq func() uint64) {
	v.dir = dir
	v.getSeq = getSeq
}

// create links the getter into the list through init.
func (v *versionList) create(dir string, getSeq func() uint64) {
	v.init(dir, getSeq)
}

// memtable holds a hook that releases its memory through the engine.
type memtable struct {
	buf     []byte
	release func()
}

func newMemtable(size int) *memtable { return &memtable{buf: make([]byte, size)} }

// newMemtableFor captures e in the release hook of the memtable it returns.
func (e *Engine) newMemtableFor(size int) *memtable {
	m := newMemtable(size)
	m.release = func() { e.freeMem(m) }
	return m
}

func (e *Engine) freeMem(m *memtable) { m.buf = nil }
func (e *Engine) applyBatch(b []byte) error {
	e.seq++
	return nil
}
func (e *Engine) writeBatch(b []byte) error { return nil }
func (e *Engine) lastSeq() uint64           { return e.seq }

// OpenEngine recovers the engine from disk under its lock. Every method
// value of e it has handed out is kept by e's own sub-objects: nobody else
// can see e yet, so the lock is uncontended. Not a finding.
func OpenEngine(dir string) (*Engine, error) {
	e := &Engine{dir: dir}
	e.commit = newCommitPipeline(e.applyBatch, e.writeBatch)
	e.versions.create(dir, e.lastSeq)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.mem = e.newMemtableFor(1 << 20)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, ent := range entries {
		if _, err := os.ReadFile(dir + "/" + ent.Name()); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// every calls f on every tick, on a goroutine of its own.
func every(d time.Duration, f func()) {
	go func() {
		for range time.Tick(d) {
			f()
		}
	}()
}

func (e *Engine) flushMem() {
	e.mu.Lock()
	e.mem = nil
	e.mu.Unlock()
}

// OpenEngineTicking starts a flusher on a method value of e before it
// recovers under e's lock: the flusher's goroutine now waits for the disk.
// every runs any func it is handed on a goroutine of its own, so handing
// it e.flushMem counts as publishing e: only a go statement or timer whose
// target is known counts as e's own worker (see workers.go).
func OpenEngineTicking(dir string) (*Engine, error) {
	e := &Engine{dir: dir}
	e.commit = newCommitPipeline(e.applyBatch, e.writeBatch)
	every(time.Second, e.flushMem)
	e.mu.Lock()
	defer e.mu.Unlock()
	entries, err := os.ReadDir(dir) // want `e.mu held across call of os.ReadDir \(locked at wiring.go:119, released by defer\)`
	if err != nil {
		return nil, err
	}
	_ = entries
	return e, nil
}

// fileIndex lists the files under a directory.
type fileIndex struct {
	mu    sync.Mutex
	files []string
}

// openIndex walks the directory under the lock of an index nobody else
// can see: the visitor closure that captures ix runs inside WalkDir and is
// not kept. Not a finding.
func openIndex(dir string) (*fileIndex, error) {
	ix := &fileIndex{}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			ix.files = append(ix.files, path)
		}
		return err
	})
	return ix, err
}

func (ix *fileIndex) refresh() {
	ix.mu.Lock()
	ix.files = nil
	ix.mu.Unlock()
}

// openIndexRefreshing registers an HTTP handler that refreshes ix first:
// the server keeps the closure, and its requests can want ix.mu while the
// walk holds it. (A timer on ix.refresh would be ix's own worker: see
// workers.go.)
func openIndexRefreshing(dir string) (*fileIndex, error) {
	ix := &fileIndex{}
	http.HandleFunc("/index/refresh", func(http.ResponseWriter, *http.Request) { ix.refresh() })
	ix.mu.Lock()
	defer ix.mu.Unlock()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error { // want `ix.mu held across call of filepath.WalkDir \(locked at wiring.go:164, released by defer\)`
		ix.files = append(ix.files, path)
		return err
	})
	return ix, err
}
