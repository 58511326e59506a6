package filewatch

import (
	"sync"
	"time"
)

// recordingNotifier lives in mock_notifier.go, the file of the package's
// test doubles: it records notifications after a configured delay, and
// what it holds its lock across is a note.
type recordingNotifier struct {
	mu    sync.Mutex
	delay time.Duration
	seen  []string
}

func (r *recordingNotifier) notify(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	time.Sleep(r.delay) // want `r.mu held across call of time.Sleep \(locked at mock_notifier.go:18, released by defer\) \(plausible: test-support code \(mock_notifier.go\)\)`
	r.seen = append(r.seen, path)
}
