package precision

import (
	"os"
	"sync"
)

// A write-ahead-log agent takes its RWMutex for reading around every
// append and truncation, and for writing only in Close: the read lock
// keeps Close from closing the log under an append in flight, and readers
// never wait for each other.
type walAgent struct {
	mtx sync.RWMutex
	log *os.File
}

func (a *walAgent) Append(rec []byte) error {
	a.mtx.RLock()
	defer a.mtx.RUnlock()
	_, err := a.log.Write(rec) // want `a.mtx held across call of os.\(\*File\).Write \(locked at closeonly.go:18, released by defer\) \(plausible: only teardown methods write-lock a.mtx: a reader holds off nothing but a Close\)`
	return err
}

func (a *walAgent) Truncate() error {
	a.mtx.RLock()
	defer a.mtx.RUnlock()
	return a.log.Sync() // want `a.mtx held across call of os.\(\*File\).Sync \(locked at closeonly.go:25, released by defer\) \(plausible: only teardown methods write-lock a.mtx: a reader holds off nothing but a Close\)`
}

func (a *walAgent) Close() error {
	a.mtx.Lock()
	defer a.mtx.Unlock()
	if err := a.log.Sync(); err != nil { // want `a.mtx held across call of os.\(\*File\).Sync \(locked at closeonly.go:31, released by defer\)`
		return err
	}
	return a.log.Close()
}

// A head writer does the same, but also write-locks to rotate the log:
// appenders wait for a rotation, and a rotation for every append's disk
// write.
type headWriter struct {
	mtx sync.RWMutex
	log *os.File
}

// Size is a short read section.
func (a *walAgent) Size() int64 {
	a.mtx.RLock()
	defer a.mtx.RUnlock()
	return 0
}

func (h *headWriter) Append(rec []byte) error {
	h.mtx.RLock()
	defer h.mtx.RUnlock()
	_, err := h.log.Write(rec) // want `h.mtx held across call of os.\(\*File\).Write \(locked at closeonly.go:55, released by defer\)`
	return err
}

func (h *headWriter) Rotate(next *os.File) {
	h.mtx.Lock()
	h.log = next
	h.mtx.Unlock()
}

func (h *headWriter) Close() error {
	h.mtx.Lock()
	defer h.mtx.Unlock()
	if err := h.log.Sync(); err != nil { // want `h.mtx held across call of os.\(\*File\).Sync \(locked at closeonly.go:68, released by defer\)`
		return err
	}
	return h.log.Close()
}
