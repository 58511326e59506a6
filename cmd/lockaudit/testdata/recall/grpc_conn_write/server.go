// Package grpc_conn_write is modelled on a grpc-go HTTP/2 server
// transport bug: Write holds the transport's mutex while it writes a data
// frame to the net.Conn. When the peer's receive window is exhausted the
// peer stops reading until it gets a WINDOW_UPDATE, so the Write blocks in
// the kernel; the reader goroutine, which must take the same mutex to
// process the peer's frames (including the peer's own WINDOW_UPDATEs),
// blocks behind it and the connection wedges.
package grpc_conn_write

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
)

// serverTransport is one HTTP/2 server connection. Buggy version.
type serverTransport struct {
	mu        sync.Mutex
	conn      net.Conn
	sendQuota uint32
	streams   map[uint32]int64 // stream -> bytes received
	writeBuf  []byte
}

func newServerTransport(conn net.Conn) *serverTransport {
	t := &serverTransport{conn: conn, sendQuota: 65535, streams: map[uint32]int64{}}
	go t.reader()
	return t
}

// Write sends data on stream id.
func (t *serverTransport) Write(id uint32, data []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writeBuf = t.writeBuf[:0]
	t.writeBuf = binary.BigEndian.AppendUint32(t.writeBuf, id)
	t.writeBuf = append(t.writeBuf, data...)
	if uint32(len(data)) <= t.sendQuota {
		t.sendQuota -= uint32(len(data))
	}
	_, err := t.conn.Write(t.writeBuf) // BUG: t.mu held across a network write the reader must unblock
	return err
}

func (t *serverTransport) reader() {
	hdr := make([]byte, 8)
	for {
		if _, err := io.ReadFull(t.conn, hdr); err != nil {
			return
		}
		id := binary.BigEndian.Uint32(hdr[:4])
		n := binary.BigEndian.Uint32(hdr[4:])
		t.mu.Lock()
		if id == 0 {
			t.sendQuota += n // WINDOW_UPDATE
		} else {
			t.streams[id] += int64(n)
		}
		t.mu.Unlock()
	}
}

// serverTransportFixed is the fixed version: the frame is built and the
// quota taken under the mutex, and written by the single writer under a
// separate write lock that the reader never takes.
type serverTransportFixed struct {
	mu        sync.Mutex
	writeMu   sync.Mutex
	conn      net.Conn
	sendQuota uint32
	streams   map[uint32]int64
}

func newServerTransportFixed(conn net.Conn) *serverTransportFixed {
	t := &serverTransportFixed{conn: conn, sendQuota: 65535, streams: map[uint32]int64{}}
	go t.reader()
	return t
}

// Write sends data on stream id.
func (t *serverTransportFixed) Write(id uint32, data []byte) error {
	buf := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(data)), id)
	buf = append(buf, data...)
	t.mu.Lock()
	if uint32(len(data)) <= t.sendQuota {
		t.sendQuota -= uint32(len(data))
	}
	t.mu.Unlock()
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	_, err := t.conn.Write(buf)
	return err
}

func (t *serverTransportFixed) reader() {
	hdr := make([]byte, 8)
	for {
		if _, err := io.ReadFull(t.conn, hdr); err != nil {
			return
		}
		id := binary.BigEndian.Uint32(hdr[:4])
		n := binary.BigEndian.Uint32(hdr[4:])
		t.mu.Lock()
		if id == 0 {
			t.sendQuota += n
		} else {
			t.streams[id] += int64(n)
		}
		t.mu.Unlock()
	}
}

// Serve wraps conn in both transports' writers.
func Serve(conn net.Conn) (func(uint32, []byte) error, func(uint32, []byte) error) {
	return newServerTransport(conn).Write, newServerTransportFixed(conn).Write
}
