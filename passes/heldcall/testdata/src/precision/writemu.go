package precision

import (
	"hash"
	"hash/crc32"
	"net"
	"os"
	"sync"
	"time"
)

// FrameWriter serialises the frames of a connection's writers. writeMu
// guards nothing but the writes (with their deadline): conn is set by the
// constructor before the writer is shared, and the reader never takes
// writeMu.
type FrameWriter struct {
	writeMu sync.Mutex
	conn    net.Conn
	timeout time.Duration
}

// NewFrameWriter wraps c.
func NewFrameWriter(c net.Conn, timeout time.Duration) *FrameWriter {
	return &FrameWriter{conn: c, timeout: timeout}
}

func (w *FrameWriter) WriteFrame(frame []byte) error {
	deadline := time.Now().Add(w.timeout)
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	if err := w.conn.SetWriteDeadline(deadline); err != nil {
		return err
	}
	_, err := w.conn.Write(frame) // want `w.writeMu held across call of net.Conn.Write \(locked at writemu.go:29, released by defer\) \(plausible: w.writeMu guards nothing but what it is held across\)`
	return err
}

// SegmentWriter checksums what it appends to a segment file: mu guards
// the running checksum as well as the writes.
type SegmentWriter struct {
	mu  sync.Mutex
	f   *os.File
	sum hash.Hash32
}

// NewSegmentWriter writes to f.
func NewSegmentWriter(f *os.File) *SegmentWriter {
	return &SegmentWriter{f: f, sum: crc32.NewIEEE()}
}

func (w *SegmentWriter) Append(rec []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sum.Write(rec)
	_, err := w.f.Write(rec) // want `w.mu held across call of os.\(\*File\).Write \(locked at writemu.go:52, released by defer\)`
	return err
}

// Redialer swaps its connection when it redials, under mu: mu guards
// which connection is written to, and a Send stuck in Write blocks
// Redial, the one thing that would unstick it.
type Redialer struct {
	mu   sync.Mutex
	addr string
	conn net.Conn
}

func (r *Redialer) Send(b []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.conn.Write(b) // want `r.mu held across call of net.Conn.Write \(locked at writemu.go:69, released by defer\)`
	return err
}

func (r *Redialer) Redial() error {
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		return err
	}
	r.mu.Lock()
	old := r.conn
	r.conn = c
	r.mu.Unlock()
	return old.Close()
}

// PeerWriters registers a writer before it gives it its connection: conn
// is set on a writer other goroutines can already find, so writeMu
// guards which connection is written to.
type PeerWriters struct {
	mu    sync.Mutex
	peers map[string]*peerWriter
}

type peerWriter struct {
	writeMu sync.Mutex
	conn    net.Conn
}

func (p *PeerWriters) Add(name string, c net.Conn) {
	w := &peerWriter{}
	p.mu.Lock()
	p.peers[name] = w
	p.mu.Unlock()
	w.conn = c
}

func (p *PeerWriters) Send(name string, b []byte) error {
	p.mu.Lock()
	w := p.peers[name]
	p.mu.Unlock()
	if w == nil {
		return nil
	}
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	_, err := w.conn.Write(b) // want `w.writeMu held across call of net.Conn.Write \(locked at writemu.go:115, released by defer\)`
	return err
}

// SyncedLog appends records to a file. syncMu only keeps two Syncs from
// running at once; mu guards the size it counts.
type SyncedLog struct {
	mu     sync.Mutex
	syncMu sync.Mutex
	f      *os.File
	size   int64
}

// OpenSyncedLog opens the log at path.
func OpenSyncedLog(path string) (*SyncedLog, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	return &SyncedLog{f: f}, nil
}

func (l *SyncedLog) Append(rec []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.f.Write(rec) // want `l.mu held across call of os.\(\*File\).Write \(locked at writemu.go:140, released by defer\)`
	l.size += int64(n)
	return err
}

func (l *SyncedLog) Sync() error {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	return l.f.Sync() // want `l.syncMu held across call of os.\(\*File\).Sync \(locked at writemu.go:148, released by defer\) \(plausible: l.syncMu guards nothing but what it is held across\)`
}
