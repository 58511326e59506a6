package regressions

import "sync"

// From loops/loops.go (its positive twin, FlushHeld, stayed there): a
// helper called with the lock held that releases it around the callback
// (an unlock/relock window) does not run the callback under the lock.

// Conn is a replication connection.
type Conn struct {
	mu      sync.Mutex
	pending [][]byte
	send    func([]byte) error
}

// flushLocked is called with c.mu held; it opens a window around each send.
func (c *Conn) flushLocked() error {
	for len(c.pending) > 0 {
		b := c.pending[0]
		c.pending = c.pending[1:]
		c.mu.Unlock()
		err := c.send(b)
		c.mu.Lock()
		if err != nil {
			return err
		}
	}
	return nil
}

// Flush holds c.mu only outside the helper's windows: not a finding.
func (c *Conn) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flushLocked()
}
