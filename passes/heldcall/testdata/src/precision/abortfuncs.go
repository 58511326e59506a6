package precision

import (
	"sync"
	"sync/atomic"
	"time"
)

// An index cleans up tombstones under its lock, asking a func of its own
// type between nodes whether to stop. The program only ever converts a
// flag's load to that type; a test converts a func that sleeps, to slow
// the loop down. The test's stand-in is not what the program runs.

type shouldAbort func() bool

type tombstoneCleaner struct {
	mu         sync.Mutex
	tombstones map[uint64]bool
	stopped    atomic.Bool
}

func (c *tombstoneCleaner) removeTombstones(abort shouldAbort) int {
	n := 0
	for id := range c.tombstones {
		if abort() {
			break
		}
		delete(c.tombstones, id)
		n++
	}
	return n
}

// Cleanup asks the stop flag between nodes: not a finding.
func (c *tombstoneCleaner) Cleanup() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.removeTombstones(c.stopped.Load)
}

// A cleaner that paces itself: the program's own pacing func sleeps.

type pace func() bool

type pacedCleaner struct {
	mu         sync.Mutex
	tombstones map[uint64]bool
	budget     time.Duration
}

func (c *pacedCleaner) wait() bool {
	time.Sleep(c.budget)
	return false
}

func (c *pacedCleaner) removeTombstones(p pace) int {
	n := 0
	for id := range c.tombstones {
		if p() {
			break
		}
		delete(c.tombstones, id)
		n++
	}
	return n
}

// Cleanup is its twin: it sleeps between nodes with the lock held.
func (c *pacedCleaner) Cleanup() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.removeTombstones(c.wait) // want `c.mu held across call of \(\*pacedCleaner\).removeTombstones, which blocks`
}
