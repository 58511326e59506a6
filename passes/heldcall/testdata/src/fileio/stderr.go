package fileio

import (
	"net"
	"os"
	"sync"
)

// A network log writer falls back to the process's stderr while its log
// server is unreachable: printing, which a lock may cover like logging.

type logConn struct {
	mu       sync.Mutex
	conn     net.Conn
	spill    *os.File
	failures int
}

// WriteFallback prints the entry to stderr under the lock. Not a finding.
func (l *logConn) WriteFallback(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures++
	os.Stderr.Write(b)
}

// WriteSpill appends the entry to a spill file on disk under the lock:
// every writer waits for the disk.
func (l *logConn) WriteSpill(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures++
	l.spill.Write(b) // want `l.mu held across call of os.\(\*File\).Write \(locked at stderr.go:\d+, released by defer\)`
}
