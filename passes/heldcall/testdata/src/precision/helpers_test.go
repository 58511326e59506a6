package precision

import (
	"testing"
	"time"
)

// A test holds the lock because the helper it calls requires it: heldcall
// stays silent in _test.go files unless -heldcall.tests is given.
func TestSyncLocked(t *testing.T) {
	l := &Log{cur: &segment{}}
	l.mu.Lock()
	time.Sleep(time.Millisecond)
	if err := l.cur.sync(); err != nil {
		t.Fatal(err)
	}
	l.mu.Unlock()
}

// Tests turn the cleaner's switch on.
func TestCleanerWaits(t *testing.T) {
	c := &cleaner{}
	c.opts.private.testingAlwaysWait = true
	c.DeleteObsolete([]string{"000001.sst"})
}

func init() { synchronizeRefreshForTest = true }

func slowNeverStop() bool {
	time.Sleep(time.Millisecond)
	return false
}

// A test slows the tombstone cleanup down through the abort func.
func TestSlowCleanup(t *testing.T) {
	c := &tombstoneCleaner{tombstones: map[uint64]bool{1: true}}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeTombstones(slowNeverStop)
}
