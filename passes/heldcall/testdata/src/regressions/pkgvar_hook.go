package regressions

import (
	"sync"
	"time"
)

// From callbacks/hooks.go: a package-level func variable set by users is a
// callback (foreign code).

// PanicHandler, when set, is told about every panic a job recovers from.
// Servers point it at their error tracker, which reports over the network.
var PanicHandler func(job string, v any)

// Scheduler runs named jobs and counts their failures.
type Scheduler struct {
	mu       sync.Mutex
	failures map[string]int
	last     map[string]time.Time
}

// RecoverHeld reports the panic through the package-level hook with the
// scheduler locked: the hook is the user's code, and it does network I/O.
func (s *Scheduler) RecoverHeld(job string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[job]++
	s.last[job] = time.Now()
	if PanicHandler != nil {
		PanicHandler(job, v) // want `s.mu held across call of func value PanicHandler \(locked at pkgvar_hook.go:25, released by defer\) \(plausible: the func value can be exported variable PanicHandler, which other packages may set\)`
	}
}

// Recover counts under the lock and calls the hook after.
func (s *Scheduler) Recover(job string, v any) {
	s.mu.Lock()
	s.failures[job]++
	s.last[job] = time.Now()
	s.mu.Unlock()
	if h := PanicHandler; h != nil {
		h(job, v)
	}
}
