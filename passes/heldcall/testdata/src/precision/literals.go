package precision

import (
	"io"
	"sync"

	"codec"
)

// FrameConn compresses what it sends.
type FrameConn struct {
	mu  sync.Mutex
	enc *codec.Encoder
}

// SetLevel swaps in a new encoder under the lock: building it waits for
// nothing. Not a finding.
func (c *FrameConn) SetLevel(level int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enc = codec.NewEncoder(nil, codec.WithLevel(level))
}

// Mirror builds an encoder whose constructor restarts its writer, with the
// lock held.
func (c *FrameConn) Mirror(primary, mirror io.Writer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enc = codec.NewMirrorEncoder(primary, mirror) // want `c.mu held across call of codec.NewMirrorEncoder, which blocks: codec.NewMirrorEncoder -> codec.\(\*Encoder\).Reset -> sync.\(\*WaitGroup\).Wait \(locked at literals.go:27, released by defer\)`
}

// Redirect resets the connection's running encoder with the lock held: its
// writer may be running.
func (c *FrameConn) Redirect(w io.Writer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enc.Reset(w) // want `c.mu held across call of codec.\(\*Encoder\).Reset, which blocks: codec.\(\*Encoder\).Reset -> sync.\(\*WaitGroup\).Wait \(locked at literals.go:35, released by defer\)`
}
