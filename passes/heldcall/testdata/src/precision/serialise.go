package precision

import (
	"os"
	"sync"
)

// A block store compacts, reloads and deletes its files under cmtx, whose
// only job is to keep those from overlapping: every critical section of it
// does disk work, so nothing waits on it that is not itself disk work.
type blockStore struct {
	cmtx sync.Mutex
	dir  string
}

func (b *blockStore) Compact() error {
	b.cmtx.Lock()
	defer b.cmtx.Unlock()
	return os.WriteFile(b.dir+"/compacted", nil, 0o644) // want `b.cmtx held across call of os.WriteFile \(locked at serialise.go:17, released by defer\) \(plausible: every critical section of b.cmtx blocks: it exists to serialise them\)`
}

func (b *blockStore) Reload() error {
	b.cmtx.Lock()
	defer b.cmtx.Unlock()
	_, err := os.ReadDir(b.dir) // want `b.cmtx held across call of os.ReadDir \(locked at serialise.go:23, released by defer\) \(plausible: every critical section of b.cmtx blocks: it exists to serialise them\)`
	return err
}

func (b *blockStore) Delete(name string) error {
	b.cmtx.Lock()
	defer b.cmtx.Unlock()
	return os.Remove(b.dir + "/" + name) // want `b.cmtx held across call of os.Remove \(locked at serialise.go:30, released by defer\) \(plausible: every critical section of b.cmtx blocks: it exists to serialise them\)`
}

// A head block does the same under mtx, but queries read its directory
// under mtx too: a query waits for a compaction's disk work.
type headBlock struct {
	mtx sync.Mutex
	dir string
}

func (h *headBlock) Compact() error {
	h.mtx.Lock()
	defer h.mtx.Unlock()
	return os.WriteFile(h.dir+"/compacted", nil, 0o644) // want `h.mtx held across call of os.WriteFile \(locked at serialise.go:43, released by defer\)`
}

func (h *headBlock) Reload() error {
	h.mtx.Lock()
	defer h.mtx.Unlock()
	_, err := os.ReadDir(h.dir) // want `h.mtx held across call of os.ReadDir \(locked at serialise.go:49, released by defer\)`
	return err
}

func (h *headBlock) Delete(name string) error {
	h.mtx.Lock()
	defer h.mtx.Unlock()
	return os.Remove(h.dir + "/" + name) // want `h.mtx held across call of os.Remove \(locked at serialise.go:56, released by defer\)`
}

func (h *headBlock) Dir() string {
	h.mtx.Lock()
	defer h.mtx.Unlock()
	return h.dir
}
