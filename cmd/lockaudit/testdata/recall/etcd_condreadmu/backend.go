// Package etcd_condreadmu is modelled on an etcd backend read-transaction
// deadlock: a reader that must see a given revision takes the read-buffer
// lock, then waits on the commit condition variable (whose L is the
// backend's commit mutex) while still holding the read-buffer lock. The
// committer must take the read-buffer lock for writing to publish the
// committed data before it broadcasts, so it never gets there.
package etcd_condreadmu

import "sync"

// Backend buffers writes and commits them in batches. Buggy version.
type Backend struct {
	mu           sync.Mutex // guards pending and committedRev
	commitCond   *sync.Cond // L is &mu
	pending      map[string][]byte
	committedRev int64

	readMu  sync.RWMutex // guards readBuf
	readBuf map[string][]byte
}

// NewBackend returns an empty backend.
func NewBackend() *Backend {
	b := &Backend{pending: map[string][]byte{}, readBuf: map[string][]byte{}}
	b.commitCond = sync.NewCond(&b.mu)
	return b
}

// Put buffers a write.
func (b *Backend) Put(key string, val []byte) {
	b.mu.Lock()
	b.pending[key] = val
	b.mu.Unlock()
}

// ReadAtLeast returns key's value once revision rev is committed.
func (b *Backend) ReadAtLeast(rev int64, key string) []byte {
	b.readMu.RLock()
	defer b.readMu.RUnlock()
	b.mu.Lock()
	for b.committedRev < rev {
		b.commitCond.Wait() // BUG: b.readMu stays read-locked; Commit needs it for writing
	}
	b.mu.Unlock()
	return b.readBuf[key]
}

// Commit publishes the pending writes to readers.
func (b *Backend) Commit() {
	b.readMu.Lock()
	b.mu.Lock()
	for k, v := range b.pending {
		b.readBuf[k] = v
	}
	b.pending = map[string][]byte{}
	b.committedRev++
	b.commitCond.Broadcast()
	b.mu.Unlock()
	b.readMu.Unlock()
}

// BackendFixed is the fixed version: the reader waits for the revision
// holding only the commit mutex, and takes the read-buffer lock after.
type BackendFixed struct {
	mu           sync.Mutex
	commitCond   *sync.Cond
	pending      map[string][]byte
	committedRev int64

	readMu  sync.RWMutex
	readBuf map[string][]byte
}

// NewBackendFixed returns an empty backend.
func NewBackendFixed() *BackendFixed {
	b := &BackendFixed{pending: map[string][]byte{}, readBuf: map[string][]byte{}}
	b.commitCond = sync.NewCond(&b.mu)
	return b
}

// Put buffers a write.
func (b *BackendFixed) Put(key string, val []byte) {
	b.mu.Lock()
	b.pending[key] = val
	b.mu.Unlock()
}

// ReadAtLeast returns key's value once revision rev is committed.
func (b *BackendFixed) ReadAtLeast(rev int64, key string) []byte {
	b.mu.Lock()
	for b.committedRev < rev {
		b.commitCond.Wait()
	}
	b.mu.Unlock()
	b.readMu.RLock()
	defer b.readMu.RUnlock()
	return b.readBuf[key]
}

// Commit publishes the pending writes to readers.
func (b *BackendFixed) Commit() {
	b.readMu.Lock()
	b.mu.Lock()
	for k, v := range b.pending {
		b.readBuf[k] = v
	}
	b.pending = map[string][]byte{}
	b.committedRev++
	b.commitCond.Broadcast()
	b.mu.Unlock()
	b.readMu.Unlock()
}
