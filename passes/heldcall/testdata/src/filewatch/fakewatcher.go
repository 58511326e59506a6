package filewatch

import "sync"

// FakeWatcher is the test double of Watcher: a test injects changes with
// InjectEvent, and the test that drives it is the only goroutine that
// waits for its lock. What it holds that lock across is a note.
type FakeWatcher struct {
	mu      sync.Mutex
	changed func(path string, added bool)
	paths   map[string]bool
}

// NewFakeWatcher returns a fake that reports each change to changed.
func NewFakeWatcher(changed func(path string, added bool)) *FakeWatcher {
	return &FakeWatcher{changed: changed, paths: map[string]bool{}}
}

// Add watches path and tells the test.
func (w *FakeWatcher) Add(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.paths[path] = true
	w.changed(path, true) // want `w.mu held across call of func value w.changed \(locked at fakewatcher.go:21, released by defer\) \(plausible: the func value can be a parameter of NewFakeWatcher, test-support code \(NewFakeWatcher\)\)`
}
