package precision

import (
	"os"
	"sync"
)

// A FUSE mount mirrors every file it opens into /tmp when a debug switch
// is on: a developer's aid that normal runs never take, so the open under
// the handle table's lock is only plausible.

// IsDebugFileReadWrite mirrors opened files for debugging.
var IsDebugFileReadWrite = false

type fileHandle struct {
	name   string
	mirror *os.File
}

type handleTable struct {
	mu      sync.Mutex
	handles map[uint64]*fileHandle
	opts    mountOptions
}

type mountOptions struct {
	DebugCache bool
	CacheDir   string
}

func newFileHandle(name string) *fileHandle {
	fh := &fileHandle{name: name}
	if IsDebugFileReadWrite {
		fh.mirror, _ = os.OpenFile("/tmp/mirror-"+name, os.O_RDWR|os.O_CREATE, 0o600)
	}
	return fh
}

// Acquire opens a handle under the table's lock: the mirror opens only
// with the switch on.
func (t *handleTable) Acquire(id uint64, name string) *fileHandle {
	t.mu.Lock()
	defer t.mu.Unlock()
	fh := newFileHandle(name) // want `t.mu held across call of newFileHandle, which blocks: newFileHandle -> os.OpenFile .*\(plausible: only when debug switch IsDebugFileReadWrite is on\)`
	t.handles[id] = fh
	return fh
}

// Evict writes the evicted entry to the cache directory only when the
// mount's debug option is on.
func (t *handleTable) Evict(id uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fh := t.handles[id]
	delete(t.handles, id)
	if !t.opts.DebugCache {
		return
	}
	os.WriteFile(t.opts.CacheDir+"/"+fh.name, nil, 0o600) // want `t.mu held across call of os.WriteFile .*\(plausible: only when debug switch DebugCache is on\)`
}

// Persist is the twin: the entry is written whatever the switch says.
func (t *handleTable) Persist(id uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fh := t.handles[id]
	if fh == nil {
		return
	}
	os.WriteFile(t.opts.CacheDir+"/"+fh.name, nil, 0o600) // want `t.mu held across call of os.WriteFile \(locked at debugswitch.go:64, released by defer\)$`
}
