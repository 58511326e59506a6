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
