// Package changefeed holds the cases of an error built with a stack trace
// under a lock: the error library reads each frame's source file to print
// it, which is debugging output on a bug path, not I/O the lock waits for.
// An error recorded in a crash log file under the lock is.
package changefeed

import (
	"fmt"
	"sync"

	"changefeed/stackerr"
)

// bugf reports a broken invariant with its stack.
func bugf(format string, args ...any) error {
	return fmt.Errorf("BUG: %s", stackerr.Errorf(format, args...).ErrorStack())
}

// A Changes tracks the byte size of the changes of one revision.
type Changes struct {
	mu        sync.Mutex
	byteSize  int64
	maxBytes  int64
	revisions map[uint64][]string
}

// Add records a change, failing on an accounting bug.
func (c *Changes) Add(rev uint64, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byteSize += int64(len(key))
	if c.byteSize < 0 {
		return bugf("byte size underflow: %d", c.byteSize)
	}
	c.revisions[rev] = append(c.revisions[rev], key)
	return nil
}

// Remove is Add's twin for removals, which records the bug in the crash
// log under the lock: a file append.
func (c *Changes) Remove(rev uint64, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byteSize -= int64(len(key))
	if c.byteSize < 0 {
		return stackerr.BugToFile("byte size underflow: %d", c.byteSize) // want `c.mu held across call of stackerr.BugToFile, which blocks: stackerr.BugToFile -> os.OpenFile`
	}
	delete(c.revisions, rev)
	return nil
}
