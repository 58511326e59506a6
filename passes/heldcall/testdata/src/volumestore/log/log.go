// Package log is the volume server's write-ahead log: a package named
// like a logger that exports no logging verbs, so its writes are I/O.
package log

import (
	"os"
	"sync"
)

// A Log appends records to a file.
type Log struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens the log at path.
func Open(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	return &Log{f: f}, nil
}

// Append writes one record.
func (l *Log) Append(rec []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.f.Write(rec)
	return err
}
