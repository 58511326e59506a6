package netio

import (
	"io"
	"net"
	"os"
	"sync"
)

// A frame reader reads length-prefixed frames from a peer, one reader at a
// time. io.ReadFull blocks as long as the stream it reads: on a connection
// it waits for the peer (network), on a spool file for the disk.
type frameReader struct {
	mu    sync.Mutex
	conn  net.Conn
	spool *os.File
}

func (r *frameReader) readHeader(hdr []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := io.ReadFull(r.conn, hdr) // want `r.mu held across call of io.ReadFull \(locked at frames.go:\d+, released by defer\)`
	return err
}

func (r *frameReader) replayHeader(hdr []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := io.ReadFull(r.spool, hdr) // want `r.mu held across call of io.ReadFull \(locked at frames.go:\d+, released by defer\)`
	return err
}

// readHeaderUnlocked reads outside the lock and takes it only to record
// what it read.
func (r *frameReader) readHeaderUnlocked(hdr []byte, last *[]byte) error {
	if _, err := io.ReadFull(r.conn, hdr); err != nil {
		return err
	}
	r.mu.Lock()
	*last = append((*last)[:0], hdr...)
	r.mu.Unlock()
	return nil
}
