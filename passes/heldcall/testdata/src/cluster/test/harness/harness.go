// Package harness starts the workloads of an integration test: it lives
// in the repository's test tree (a path element test), so the test that
// drives it is the only goroutine that waits for its locks, and what it
// holds them across is a note.
package harness

import (
	"os"
	"path/filepath"
	"sync"
)

// Runtime is the state of one test suite run.
type Runtime struct {
	mu      sync.Mutex
	workDir string
	dirs    map[string]string
}

// NewContext makes the working directory of a test under the runtime's
// lock.
func (r *Runtime) NewContext(name string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	dir := filepath.Join(r.workDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil { // want `r.mu held across call of os.MkdirAll \(locked at harness.go:23, released by defer\) \(plausible: test-support code \(package test\)\)`
		return "", err
	}
	r.dirs[name] = dir
	return dir, nil
}
