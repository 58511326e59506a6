package regressions

import "sync"

// From defers/defers.go: a call deferred after the deferred Unlock runs
// before it (deferred calls run last-in first-out), under the lock.

// Worker reports finished jobs through a hook.
type Worker struct {
	mu     sync.Mutex
	active map[string]bool
	onDone func(job string)
}

// FinishHeld defers the hook after deferring the unlock: deferred calls
// run last-in first-out, so the hook runs before the unlock, under w.mu.
func (w *Worker) FinishHeld(job string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	defer w.onDone(job) // want `w.mu held across deferred call of func value w.onDone \(locked at deferred_callback.go:18, released by defer\) \(plausible: the func value can be field onDone, which the package never sets\)`
	delete(w.active, job)
}

// Finish defers the hook first, so that it runs after the unlock.
func (w *Worker) Finish(job string) {
	defer w.onDone(job)
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.active, job)
}
