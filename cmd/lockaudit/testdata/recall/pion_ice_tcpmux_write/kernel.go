// Package pion_ice_tcpmux_write reproduces pion/ice PR #438 ("Reduce critical
// section when writing with TCPMux").
//
// tcpPacketConn.WriteTo holds the mux connection's mutex while it writes an
// RFC 4571 framed packet to the peer's TCP connection; when the peer stops reading,
// the write never times out and the mutex is never released, so Close, which needs
// the mutex to close the stuck connection, hangs too. The fix looks the connection
// up under the lock and writes after releasing it.
package pion_ice_tcpmux_write

import (
	"encoding/binary"
	"errors"
	"net"
	"sync"
)

var errNoSuchConn = errors.New("no connection for remote address")

type tcpPacketConn struct {
	mu     sync.Mutex
	conns  map[string]net.Conn
	closed bool
}

func (t *tcpPacketConn) AddConn(conn net.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.conns[conn.RemoteAddr().String()] = conn
}

func frame(buf []byte) []byte {
	out := make([]byte, 2+len(buf))
	binary.BigEndian.PutUint16(out, uint16(len(buf)))
	copy(out[2:], buf)
	return out
}

// WriteTo is called by the ICE agent for every STUN and media packet.
func (t *tcpPacketConn) WriteTo(buf []byte, raddr net.Addr) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	conn, ok := t.conns[raddr.String()]
	if !ok {
		return 0, errNoSuchConn
	}
	if _, err := conn.Write(frame(buf)); err != nil {
		return 0, err
	}
	return len(buf), nil
}

func (t *tcpPacketConn) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	for _, c := range t.conns {
		_ = c.Close()
	}
	return nil
}

// ---- fixed twin: look the connection up under the lock, write without it ----

func (t *tcpPacketConn) WriteToFixed(buf []byte, raddr net.Addr) (int, error) {
	t.mu.Lock()
	conn, ok := t.conns[raddr.String()]
	t.mu.Unlock()
	if !ok {
		return 0, errNoSuchConn
	}
	if _, err := conn.Write(frame(buf)); err != nil {
		return 0, err
	}
	return len(buf), nil
}
