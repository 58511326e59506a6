package precision

import (
	"errors"
	"os"
	"sync"
)

var errLedgerClosed = errors.New("ledger closed")

// Ledger appends records to its file. Appenders share the read side of
// fence, so they never wait for each other; only Close takes the write
// side, to wait for the appends in flight before it closes the file.
// Holding the read side across the write delays nobody but the closer,
// which must wait for those writes anyway.
type Ledger struct {
	fence  sync.RWMutex
	f      *os.File
	closed bool
}

func (j *Ledger) Append(rec []byte) error {
	j.fence.RLock()
	defer j.fence.RUnlock()
	if j.closed {
		return errLedgerClosed
	}
	_, err := j.f.Write(rec) // want `j.fence held across call of os.\(\*File\).Write \(locked at closefence.go:23, released by defer\) \(plausible: j.fence is read-locked, and only teardown locks it for writing\)`
	return err
}

// Notify is its twin that waits on a reader: a subscriber that stops
// receiving keeps the read side for ever, and Close waits with it.
func (j *Ledger) Notify(sub chan<- []byte, rec []byte) {
	j.fence.RLock()
	defer j.fence.RUnlock()
	sub <- rec // want `j.fence held across channel send \(locked at closefence.go:35, released by defer\)`
}

func (j *Ledger) Close() error {
	j.seal()
	return j.f.Close()
}

// seal is the closer's helper: only Close calls it.
func (j *Ledger) seal() {
	j.fence.Lock()
	j.closed = true
	j.fence.Unlock()
}

// SegmentLog is its twin with a writer besides Close: rotate takes the
// write side whenever a segment fills up, and waits for every append in
// flight, while the appends that arrive meanwhile queue behind it.
type SegmentLog struct {
	mu         sync.RWMutex
	seg, spare *os.File
	size       int
}

func (l *SegmentLog) Append(rec []byte) error {
	l.mu.RLock()
	_, err := l.seg.Write(rec) // want `l.mu held across call of os.\(\*File\).Write \(locked at closefence.go:62\)`
	full := l.size > 1<<20
	l.mu.RUnlock()
	if full {
		l.rotate()
	}
	return err
}

func (l *SegmentLog) rotate() {
	l.mu.Lock()
	l.seg, l.spare = l.spare, nil
	l.size = 0
	l.mu.Unlock()
}

func (l *SegmentLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seg = nil
	return nil
}

// SharedLedger is its twin whose fence other packages can take: the
// lock is embedded, so SharedLedger's users can Lock it too.
type SharedLedger struct {
	sync.RWMutex
	f *os.File
}

func (j *SharedLedger) Append(rec []byte) error {
	j.RLock()
	defer j.RUnlock()
	_, err := j.f.Write(rec) // want `j.RWMutex held across call of os.\(\*File\).Write \(locked at closefence.go:94, released by defer\)`
	return err
}

func (j *SharedLedger) Close() error {
	j.Lock()
	defer j.Unlock()
	j.f = nil
	return nil
}

// stagedFile writes a file under a temporary name. Abandon throws the
// change away; its name says nothing of teardown, but it marks the file
// closed, so the write side is still taken only to end the file's life.
type stagedFile struct {
	mu     sync.RWMutex
	f      *os.File
	closed bool
}

func (s *stagedFile) Write(p []byte) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, os.ErrClosed
	}
	return s.f.Write(p) // want `s.mu held across call of os.\(\*File\).Write \(locked at closefence.go:\d+, released by defer\) \(plausible: s.mu is read-locked, and only teardown locks it for writing\)`
}

func (s *stagedFile) Abandon() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return os.Remove(s.f.Name()) // want `s.mu held across call of os.Remove \(locked at closefence.go:\d+, released by defer\)`
}

// spoolFile is its twin whose writer marks a step, not the end: Flush
// sets flushed and the file goes on, so appends queue behind every flush.
type spoolFile struct {
	mu      sync.RWMutex
	f       *os.File
	flushed bool
}

func (s *spoolFile) Write(p []byte) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.f.Write(p) // want `s.mu held across call of os.\(\*File\).Write \(locked at closefence.go:\d+, released by defer\)`
}

func (s *spoolFile) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushed = true
	return s.f.Sync() // want `s.mu held across call of os.\(\*File\).Sync \(locked at closefence.go:\d+, released by defer\)`
}

// rotatingLog is stagedFile's twin whose writer marks the log closed only
// while it swaps the file, then clears the flag: Rotate runs during the
// log's normal life, so every rotation makes the appends queue behind the
// appends in flight.
type rotatingLog struct {
	mu     sync.RWMutex
	f      *os.File
	closed bool
}

func (l *rotatingLog) Write(p []byte) (int, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return 0, os.ErrClosed
	}
	return l.f.Write(p) // want `l.mu held across call of os.\(\*File\).Write \(locked at closefence.go:\d+, released by defer\)`
}

func (l *rotatingLog) Rotate(next *os.File) {
	l.mu.Lock()
	l.closed = true
	l.f = next
	l.closed = false
	l.mu.Unlock()
}
