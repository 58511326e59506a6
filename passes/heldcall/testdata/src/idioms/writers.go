package idioms

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
)

// Reporter writes status lines to a peer and to a spool file through the
// standard library's I/O helpers.
type Reporter struct {
	mu    sync.Mutex
	conn  net.Conn
	spool *os.File
	sent  int
}

// PushHeld formats onto the connection with the lock held.
func (r *Reporter) PushHeld(status string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent++
	fmt.Fprintf(r.conn, "%d %s\n", r.sent, status) // want `r.mu held across call of fmt.Fprintf, which calls net.Conn.Write on r.conn \(locked at writers.go:24, released by defer\)`
}

// Push is its twin: it formats into a buffer under the lock and writes
// after.
func (r *Reporter) Push(status string) {
	var buf bytes.Buffer
	r.mu.Lock()
	r.sent++
	fmt.Fprintf(&buf, "%d %s\n", r.sent, status)
	r.mu.Unlock()
	r.conn.Write(buf.Bytes())
}

// SpoolHeld appends to the spool file with the lock held.
func (r *Reporter) SpoolHeld(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	io.WriteString(r.spool, line) // want `r.mu held across call of io.WriteString, which calls os.\(\*File\).Write on r.spool \(locked at writers.go:43, released by defer\)`
}

// Spool is its twin: the line is built under the lock, written outside.
func (r *Reporter) Spool(line string) {
	var b strings.Builder
	r.mu.Lock()
	r.sent++
	io.WriteString(&b, line)
	r.mu.Unlock()
	io.WriteString(r.spool, b.String())
}

// Replayer replays length-prefixed records from its segment file.
type Replayer struct {
	mu      sync.Mutex
	segment *os.File
	offset  int64
}

// readRecord fills buf from r: the callee can only call r's Read, so a
// file handed to it is read, not written.
func readRecord(r io.Reader, buf []byte) (int, error) {
	return io.ReadFull(r, buf)
}

// NextHeld reads the next record with the lock held.
func (j *Replayer) NextHeld(buf []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	n, err := readRecord(j.segment, buf) // want `j.mu held across call of readRecord, which calls os.\(\*File\).Read on j.segment \(locked at writers.go:73, released by defer\)`
	j.offset += int64(n)
	return err
}

// Next is its twin: it reads at the offset it took under the lock, and
// records the advance after.
func (j *Replayer) Next(buf []byte) error {
	j.mu.Lock()
	off := j.offset
	j.offset += int64(len(buf))
	j.mu.Unlock()
	_, err := j.segment.ReadAt(buf, off)
	return err
}
