package precision

import (
	"os"
	"sync"
	"time"
)

// A session store expires tokens in a background sweeper. Stopping the
// sweeper is a handshake: it is always ready to take the stop signal, and
// its sweep is in-memory work under its own lock.

type sweeper struct {
	mu     *sync.Mutex
	tokens map[string]time.Time
	stopc  chan struct{}
	donec  chan struct{}
}

func (s *sweeper) run() {
	t := time.NewTicker(time.Second)
	defer func() {
		t.Stop()
		close(s.donec)
	}()
	for {
		select {
		case <-t.C:
			now := time.Now()
			s.mu.Lock()
			for tok, end := range s.tokens {
				if now.After(end) {
					delete(s.tokens, tok)
				}
			}
			s.mu.Unlock()
		case <-s.stopc:
			return
		}
	}
}

func (s *sweeper) stop() {
	select {
	case s.stopc <- struct{}{}:
	case <-s.donec:
	}
	<-s.donec
}

type sessions struct {
	enabledMu sync.Mutex
	tokensMu  sync.Mutex
	sweep     *sweeper
}

func (ss *sessions) enable() {
	ss.tokensMu.Lock()
	defer ss.tokensMu.Unlock()
	ss.sweep = &sweeper{mu: &ss.tokensMu, tokens: map[string]time.Time{}, stopc: make(chan struct{}), donec: make(chan struct{})}
	go ss.sweep.run()
}

// Close waits for the sweeper's handshake under enabledMu, which the
// sweeper never takes: it waits for one short sweep at most. Not a
// finding.
func (ss *sessions) Close() {
	ss.enabledMu.Lock()
	defer ss.enabledMu.Unlock()
	ss.tokensMu.Lock()
	sw := ss.sweep
	ss.sweep = nil
	ss.tokensMu.Unlock()
	if sw != nil {
		sw.stop()
	}
}

// CloseLocked holds the sweeper's own lock across the handshake: the
// sweeper may be waiting for that lock, and never gets to the stop case.
func (ss *sessions) CloseLocked() {
	ss.tokensMu.Lock()
	defer ss.tokensMu.Unlock()
	if ss.sweep != nil {
		ss.sweep.stop() // want `ss.tokensMu held across call of \(\*sweeper\).stop, which blocks: \(\*sweeper\).stop -> select \(locked at joins.go:82, released by defer\)`
	}
}

// A write-ahead log whose flusher writes to disk between stop checks: stopping it
// waits for a write.

type wal struct {
	f     *os.File
	buf   []byte
	stopc chan struct{}
	donec chan struct{}
}

func (j *wal) flushLoop() {
	defer close(j.donec)
	for {
		select {
		case <-time.After(time.Second):
			j.f.Write(j.buf)
		case <-j.stopc:
			return
		}
	}
}

func (j *wal) stop() {
	close(j.stopc)
	<-j.donec
}

type ledger struct {
	mu sync.Mutex
	j  *wal
}

func (l *ledger) open(f *os.File) {
	l.j = &wal{f: f, stopc: make(chan struct{}), donec: make(chan struct{})}
	go l.j.flushLoop()
}

// Rotate swaps the log under l.mu: appenders wait for the flusher's disk
// write.
func (l *ledger) Rotate() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.j.stop() // want `l.mu held across call of \(\*wal\).stop, which blocks: \(\*wal\).stop -> channel receive \(locked at joins.go:129, released by defer\)`
}

// A key index is rebuilt by a goroutine that ranges over the entries the
// loader streams to it, and hands back the last revision when the stream
// is closed.

type entry struct {
	key string
	rev int64
}

func rebuildIndex(idx map[string]int64) (chan<- entry, <-chan int64) {
	entries, revc := make(chan entry, 64), make(chan int64, 1)
	go func() {
		rev := int64(0)
		defer func() { revc <- rev }()
		for e := range entries {
			idx[e.key] = e.rev
			rev = e.rev
		}
	}()
	return entries, revc
}

type kvstore struct {
	revMu sync.Mutex
	rev   int64
	idx   map[string]int64
}

// Restore closes the stream before it waits for the revision: the
// indexer only finishes its in-memory inserts. Not a finding.
func (s *kvstore) Restore(es []entry) {
	entries, revc := rebuildIndex(s.idx)
	for _, e := range es {
		entries <- e
	}
	close(entries)
	s.revMu.Lock()
	s.rev = <-revc
	s.revMu.Unlock()
}

// RestoreEarly waits for the revision before it closes the stream: the
// indexer is still waiting for entries.
func (s *kvstore) RestoreEarly(es []entry) {
	entries, revc := rebuildIndex(s.idx)
	for _, e := range es {
		entries <- e
	}
	s.revMu.Lock()
	s.rev = <-revc // want `s.revMu held across channel receive \(locked at joins.go:182\)`
	s.revMu.Unlock()
	close(entries)
}

// streamEntries feeds the indexer.
func streamEntries(entries chan<- entry, es []entry) {
	for _, e := range es {
		entries <- e
	}
}

// RestoreAll holds revMu while it streams to the indexer, which is always
// ready for the next entry. Not a finding.
func (s *kvstore) RestoreAll(es []entry) {
	s.revMu.Lock()
	defer s.revMu.Unlock()
	entries, revc := rebuildIndex(s.idx)
	streamEntries(entries, es)
	close(entries)
	s.rev = <-revc
}

// archive writes each entry it is handed to disk.
func archive(f *os.File) chan<- entry {
	entries := make(chan entry)
	go func() {
		for e := range entries {
			f.WriteString(e.key)
		}
	}()
	return entries
}

// ArchiveAll holds revMu while the archiver writes each entry: every send
// waits for a disk write.
func (s *kvstore) ArchiveAll(f *os.File, es []entry) {
	s.revMu.Lock()
	defer s.revMu.Unlock()
	entries := archive(f)
	for _, e := range es {
		entries <- e // want `s.revMu held across channel send \(locked at joins.go:220, released by defer\)`
	}
	close(entries)
}
