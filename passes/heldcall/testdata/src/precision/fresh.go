package precision

import (
	"os"
	"sync"
)

// store is loaded from disk when it is opened.
type store struct {
	mu   sync.Mutex
	data []byte
}

// open locks a store nobody else can see yet while it reads the file: the
// lock is uncontended. Not a finding.
func open(path string) (*store, error) {
	s := &store{}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

var (
	storesMu sync.Mutex
	stores   = map[string]*store{}
)

// openShared publishes the store before it reads the file under the
// store's lock: readers of the registry now wait for the disk.
func openShared(path string) (*store, error) {
	s := &store{}
	storesMu.Lock()
	stores[path] = s
	storesMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(path) // want `s.mu held across call of os.ReadFile \(locked at fresh.go:40, released by defer\)`
	if err != nil {
		return nil, err
	}
	s.data = b
	return s, nil
}

// Load opens every path.
func Load(paths []string) error {
	for _, p := range paths {
		if _, err := open(p); err != nil {
			return err
		}
		if _, err := openShared(p); err != nil {
			return err
		}
	}
	return nil
}
