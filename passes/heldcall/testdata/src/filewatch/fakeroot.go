package filewatch

import (
	"os"
	"sync"
)

// Overlay serves a fake root file system to sandboxed processes: a
// product feature whose file name only starts with fake, not a test
// double, so what it holds its lock across stays a warning.
type Overlay struct {
	mu    sync.Mutex
	root  string
	files map[string][]byte
}

// Persist writes a file of the overlay to disk with the lock held.
func (o *Overlay) Persist(name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return os.WriteFile(o.root+"/"+name, o.files[name], 0o644) // want `o.mu held across call of os.WriteFile \(locked at fakeroot.go:19, released by defer\)`
}

// Snapshot is its twin: it copies the bytes under the lock and writes
// them after.
func (o *Overlay) Snapshot(name string) error {
	o.mu.Lock()
	data := o.files[name]
	root := o.root
	o.mu.Unlock()
	return os.WriteFile(root+"/"+name, data, 0o644)
}
