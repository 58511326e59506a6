package precision

import (
	"os"
	"sync"
)

// batchWriter buffers writes and syncs them to a file under its mutex.
type batchWriter struct {
	sync.Mutex
	f       *os.File
	pending int
}

// Commit syncs under the writer's lock. Every batchWriter lives inside a
// bufferedWriter, whose own Commit hides this one, and nothing names
// batchWriter.Commit: it never runs. Not a finding.
func (w *batchWriter) Commit() error {
	w.Lock()
	defer w.Unlock()
	w.pending = 0
	return w.f.Sync()
}

func (w *batchWriter) write(b []byte) error {
	_, err := w.f.Write(b)
	w.pending++
	return err
}

// bufferedWriter keeps a read buffer in step with its batchWriter.
type bufferedWriter struct {
	batchWriter
	buf [][]byte
}

// Commit hides batchWriter.Commit; it swaps the buffer and syncs without the
// lock held across the sync.
func (b *bufferedWriter) Commit() error {
	b.Lock()
	b.buf = nil
	b.pending = 0
	b.Unlock()
	return b.f.Sync()
}

// Backend is the package's storage backend.
type Backend struct {
	tx *bufferedWriter
}

type committer interface{ Commit() error }

// Flush commits through the interface: bufferedWriter's Commit.
func (be *Backend) Flush() error {
	var c committer = be.tx
	return c.Commit()
}

// journal is a batchWriter's twin that is also used on its own.
type journal struct {
	sync.Mutex
	f *os.File
}

// Commit syncs under the journal's lock; Rotate calls it.
func (j *journal) Commit() error {
	j.Lock()
	defer j.Unlock()
	return j.f.Sync() // want `j.Mutex held across call of os.\(\*File\).Sync \(locked at shadowed.go:68, released by defer\)`
}

type bufferedJournal struct {
	journal
	buf [][]byte
}

func (b *bufferedJournal) Commit() error {
	b.Lock()
	b.buf = nil
	b.Unlock()
	return b.f.Sync()
}

// Rotate names journal.Commit through the embedded field.
func (be *Backend) Rotate(b *bufferedJournal) error {
	return b.journal.Commit()
}
