// Package pluginfilter has one heldcall finding of each of two categories,
// for the golangci-lint plugin's category filter.
package pluginfilter

import (
	"sync"
	"time"
)

var mu sync.Mutex

// Nap sleeps with mu held.
func Nap() {
	mu.Lock()
	time.Sleep(time.Millisecond)
	mu.Unlock()
}

// Run calls job with mu held.
func Run(job func()) {
	mu.Lock()
	job()
	mu.Unlock()
}
