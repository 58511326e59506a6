package precision

import (
	"errors"
	"os"
	"sync"
)

var errIndexBusy = errors.New("index busy")

// A file-backed index compacts and reports its stats only when nobody
// else holds its handle lock, and gives up otherwise. Only Close takes the
// lock with Lock: it waits for a running compaction, and nobody waits for
// Close.
type boltHandle struct {
	hmu        sync.Mutex
	f          *os.File
	generation int
	entries    int
}

func (x *boltHandle) Compact() error {
	if !x.hmu.TryLock() {
		return errIndexBusy
	}
	defer x.hmu.Unlock()
	x.generation++
	return nil
}

func (x *boltHandle) Stats() (int, error) {
	if !x.hmu.TryLock() {
		return 0, errIndexBusy
	}
	defer x.hmu.Unlock()
	return x.entries, nil
}

func (x *boltHandle) Close() error {
	x.hmu.Lock()
	defer x.hmu.Unlock()
	return x.f.Sync() // want `x.hmu held across call of os.\(\*File\).Sync \(locked at tryteardown.go:40, released by defer\) \(plausible: x.hmu is taken with TryLock everywhere but in teardown: nobody waits for it\)`
}

// A journal's Stats waits for the handle lock: Close's final sync holds up
// every Stats call made meanwhile.
type journalIndex struct {
	hmu        sync.Mutex
	f          *os.File
	generation int
	entries    int
}

func (x *journalIndex) Compact() error {
	if !x.hmu.TryLock() {
		return errIndexBusy
	}
	defer x.hmu.Unlock()
	x.generation++
	return nil
}

func (x *journalIndex) Stats() int {
	x.hmu.Lock()
	defer x.hmu.Unlock()
	return x.entries
}

func (x *journalIndex) Close() error {
	x.hmu.Lock()
	defer x.hmu.Unlock()
	return x.f.Sync() // want `x.hmu held across call of os.\(\*File\).Sync \(locked at tryteardown.go:70, released by defer\)$`
}

// A view of a segment store closes by syncing the store's file under the
// store's handle lock: many views close at once, and each waits behind
// another's sync. The Close is a view's, not the store's.
type segmentStore struct {
	hmu  sync.Mutex
	f    *os.File
	live int
}

func (st *segmentStore) Compact() error {
	if !st.hmu.TryLock() {
		return errIndexBusy
	}
	defer st.hmu.Unlock()
	st.live = 0
	return nil
}

type segmentView struct{ st *segmentStore }

func (v *segmentView) Close() error {
	v.st.hmu.Lock()
	defer v.st.hmu.Unlock()
	return v.st.f.Sync() // want `v.st.hmu held across call of os.\(\*File\).Sync \(locked at tryteardown.go:\d+, released by defer\)$`
}

// A count ledger's Stats spins on a try helper until it gets the lock: it waits
// for Close's final sync as surely as Lock would.
type countLedger struct {
	hmu     sync.Mutex
	f       *os.File
	entries int
}

func (l *countLedger) tryEntries() (int, bool) {
	if !l.hmu.TryLock() {
		return 0, false
	}
	defer l.hmu.Unlock()
	return l.entries, true
}

func (l *countLedger) Stats() int {
	for {
		if n, ok := l.tryEntries(); ok {
			return n
		}
	}
}

func (l *countLedger) Close() error {
	l.hmu.Lock()
	defer l.hmu.Unlock()
	return l.f.Sync() // want `l.hmu held across call of os.\(\*File\).Sync \(locked at tryteardown.go:\d+, released by defer\)$`
}
