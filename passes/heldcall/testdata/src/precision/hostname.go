package precision

import (
	"os"
	"sync"
)

// A device registry that names the local device after the host the first
// time it is asked. os.Hostname asks the kernel; reading the host's name
// from a file under the lock is a file read every other lookup waits for.

type deviceRegistry struct {
	mu    sync.Mutex
	local string
	names map[string]string
}

// LocalName fills in the local name from the kernel. Not a finding.
func (r *deviceRegistry) LocalName() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.local == "" {
		r.local, _ = os.Hostname()
	}
	return r.local
}

// LocalNameFromFile reads it from a configured file instead.
func (r *deviceRegistry) LocalNameFromFile(path string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.local == "" {
		b, _ := os.ReadFile(path) // want `r.mu held across call of os.ReadFile \(locked at hostname.go:\d+, released by defer\)`
		r.local = string(b)
	}
	return r.local
}
