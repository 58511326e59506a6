// Package methodvalues holds locks taken again through a method value
// called while the lock is held, next to the same call made after the
// unlock.
package methodvalues

import "sync"

// Registry counts its sessions under its lock.
type Registry struct {
	mu       sync.Mutex
	sessions map[string]int
	onReport func(int)
}

func (r *Registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// ReportHeld calls count through a method value with r.mu held.
func (r *Registry) ReportHeld() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.count
	return n() // want `r.mu locked again through call of \(\*Registry\).count while held \(locked at methodvalues.go:\d+\)`
}

// Report calls it after the unlock.
func (r *Registry) Report() int {
	r.mu.Lock()
	r.sessions["report"]++
	r.mu.Unlock()
	n := r.count
	return n()
}

// Other registries' counts are other locks.
func (r *Registry) Compare(other *Registry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := other.count
	return n() > len(r.sessions)
}
