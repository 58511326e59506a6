// Models cloudflare/gokeyless PR #186 ("Close doesn't lock the DoRead
// goroutine"): the keyless protocol connection serialises readers with
// readMtx and holds it across the blocking read of the next frame header
// from the net.Conn; Close takes readMtx (and writeMtx) before closing the
// socket. On an idle connection the reader holds readMtx for as long as the
// peer sends nothing, so closing an idle connection blocks forever (mutex held
// across io.ReadFull on a net.Conn; the operation that would unblock the read
// needs the mutex).
package gokeyless_conn_readmtx

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
)

const headerSize = 8

// Header is a keyless protocol frame header.
type Header struct {
	Version uint8
	Length  uint16
	ID      uint32
}

// Operation is one request frame.
type Operation struct {
	Header
	Body []byte
}

var errBadVersion = errors.New("keyless: unsupported protocol version")

// Conn is a keyless connection. Buggy version.
type Conn struct {
	conn     net.Conn
	readMtx  sync.Mutex
	writeMtx sync.Mutex
	closed   bool
}

// NewConn wraps c.
func NewConn(c net.Conn) *Conn { return &Conn{conn: c} }

// DoRead reads the next operation from the connection.
func (c *Conn) DoRead() (*Operation, error) {
	c.readMtx.Lock()
	defer c.readMtx.Unlock()
	hdr := make([]byte, headerSize)
	if _, err := io.ReadFull(c.conn, hdr); err != nil { // BUG: blocks with readMtx held while the peer is idle
		return nil, err
	}
	op := &Operation{Header: Header{Version: hdr[0], Length: binary.BigEndian.Uint16(hdr[2:4]), ID: binary.BigEndian.Uint32(hdr[4:8])}}
	if op.Version != 1 {
		return nil, errBadVersion
	}
	op.Body = make([]byte, op.Length)
	if _, err := io.ReadFull(c.conn, op.Body); err != nil {
		return nil, err
	}
	return op, nil
}

// DoWrite writes a response frame.
func (c *Conn) DoWrite(id uint32, body []byte) error {
	c.writeMtx.Lock()
	defer c.writeMtx.Unlock()
	hdr := make([]byte, headerSize)
	hdr[0] = 1
	binary.BigEndian.PutUint16(hdr[2:4], uint16(len(body)))
	binary.BigEndian.PutUint32(hdr[4:8], id)
	if _, err := c.conn.Write(append(hdr, body...)); err != nil {
		return err
	}
	return nil
}

// Close closes the connection.
func (c *Conn) Close() error {
	c.readMtx.Lock()
	defer c.readMtx.Unlock()
	c.writeMtx.Lock()
	defer c.writeMtx.Unlock()
	c.closed = true
	return c.conn.Close()
}

// serve handles operations until the connection fails.
func serve(c interface {
	DoRead() (*Operation, error)
	DoWrite(id uint32, body []byte) error
}) {
	for {
		op, err := c.DoRead()
		if err != nil {
			return
		}
		if err := c.DoWrite(op.ID, op.Body); err != nil {
			return
		}
	}
}

// ConnFixed is the fixed version: Close does not take readMtx; closing the
// socket makes the blocked read return an error.
type ConnFixed struct {
	conn     net.Conn
	readMtx  sync.Mutex
	writeMtx sync.Mutex
	closed   bool
}

// NewConnFixed wraps c.
func NewConnFixed(c net.Conn) *ConnFixed { return &ConnFixed{conn: c} }

// DoRead reads the next operation from the connection.
func (c *ConnFixed) DoRead() (*Operation, error) {
	c.readMtx.Lock()
	defer c.readMtx.Unlock()
	hdr := make([]byte, headerSize)
	if _, err := io.ReadFull(c.conn, hdr); err != nil {
		return nil, err
	}
	op := &Operation{Header: Header{Version: hdr[0], Length: binary.BigEndian.Uint16(hdr[2:4]), ID: binary.BigEndian.Uint32(hdr[4:8])}}
	if op.Version != 1 {
		return nil, errBadVersion
	}
	op.Body = make([]byte, op.Length)
	if _, err := io.ReadFull(c.conn, op.Body); err != nil {
		return nil, err
	}
	return op, nil
}

// DoWrite writes a response frame.
func (c *ConnFixed) DoWrite(id uint32, body []byte) error {
	c.writeMtx.Lock()
	defer c.writeMtx.Unlock()
	hdr := make([]byte, headerSize)
	hdr[0] = 1
	binary.BigEndian.PutUint16(hdr[2:4], uint16(len(body)))
	binary.BigEndian.PutUint32(hdr[4:8], id)
	if _, err := c.conn.Write(append(hdr, body...)); err != nil {
		return err
	}
	return nil
}

// Close closes the connection.
func (c *ConnFixed) Close() error {
	c.writeMtx.Lock()
	defer c.writeMtx.Unlock()
	c.closed = true
	return c.conn.Close()
}
