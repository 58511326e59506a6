package cond

import (
	"sync"
	"sync/atomic"
	"time"
)

// A file handle accepts writes only in sequence: an out-of-order write
// waits on the handle's Cond, made on the handle's own mutex, through a
// helper that is handed the Cond. Its Wait releases the handle's lock.
type seqWriter struct {
	mu     sync.Mutex
	cond   sync.Cond
	offset int64
	buf    []byte
}

func newSeqWriter() *seqWriter {
	w := &seqWriter{}
	w.cond = sync.Cond{L: &w.mu}
	return w
}

// waitInSequence waits until *poff reaches off, or gives up when the
// timer fires; the caller holds cond.L. The goroutine that wakes it on
// a timeout captures the Cond.
func waitInSequence(cond *sync.Cond, poff *int64, off int64) {
	timeout := time.NewTimer(time.Second)
	done := make(chan struct{})
	var abort atomic.Bool
	go func() {
		select {
		case <-timeout.C:
			cond.L.Lock()
			abort.Store(true)
			cond.Broadcast()
			cond.L.Unlock()
		case <-done:
		}
	}()
	for *poff != off && !abort.Load() {
		cond.Wait()
	}
	close(done)
	timeout.Stop()
}

// waitTurn hands its caller's Cond on.
func (w *seqWriter) waitTurn(cond *sync.Cond, off int64) { waitInSequence(cond, &w.offset, off) }

// WriteAt waits for its turn on the handle's Cond, whose Wait releases
// w.mu: not a finding.
func (w *seqWriter) WriteAt(p []byte, off int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waitTurn(&w.cond, off)
	w.buf = append(w.buf, p...)
	w.offset += int64(len(p))
	w.cond.Broadcast()
}

// seqFile keeps a handle per file under its own lock.
type seqFile struct {
	mu   sync.Mutex
	w    *seqWriter
	size int64
}

// WriteAt is its twin: the file's lock stays held while the handle's Cond
// waits, and the writer whose turn it is needs the file's lock first.
func (f *seqFile) WriteAt(p []byte, off int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.w.mu.Lock()
	defer f.w.mu.Unlock()
	waitInSequence(&f.w.cond, &f.w.offset, off) // want `f.mu held across call of waitInSequence, which blocks: waitInSequence -> \(\*sync.Cond\).Wait \(locked at param_cond.go:\d+, released by defer\)`
	f.size += int64(len(p))
}
