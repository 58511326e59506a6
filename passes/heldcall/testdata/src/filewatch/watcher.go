// Package filewatch notifies its users of changes to the files they
// watch. watcher.go is the real watcher; fakewatcher.go is the test double
// the package ships for its users' tests.
package filewatch

import "sync"

// Watcher calls each path's handler when the file changes.
type Watcher struct {
	mu       sync.Mutex
	handlers map[string]func(path string)
}

// NotifyHeld runs the user's handler with the watcher's lock held: every
// other Add and Notify waits for it.
func (w *Watcher) NotifyHeld(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if h := w.handlers[path]; h != nil {
		h(path) // want `w.mu held across call of func value h \(locked at watcher.go:17, released by defer\)`
	}
}

// Notify is its twin: it looks the handler up under the lock and runs it
// after.
func (w *Watcher) Notify(path string) {
	w.mu.Lock()
	h := w.handlers[path]
	w.mu.Unlock()
	if h != nil {
		h(path)
	}
}

// Add registers the handler of path.
func (w *Watcher) Add(path string, h func(path string)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.handlers == nil {
		w.handlers = map[string]func(string){}
	}
	w.handlers[path] = h
}
