// Package formatting holds locks taken again through the String and Error
// methods that fmt and log call, next to their corrected twins.
package formatting

import (
	"fmt"
	"log"
	"sync"
)

// Pool is a connection pool that describes itself.
type Pool struct {
	mu    sync.Mutex
	name  string
	idle  int
	inUse int
}

// String locks the pool to read its counts.
func (p *Pool) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("%s: %d idle, %d in use", p.name, p.idle, p.inUse)
}

// ReleaseHeld logs the pool while holding its lock: %v calls String, which
// locks p.mu again.
func (p *Pool) ReleaseHeld() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inUse--
	p.idle++
	log.Printf("released a connection: %v", p) // want `p.mu locked again through call of \(\*Pool\).String \(log.Printf formats p\) while held \(locked at formatting.go:29\)`
}

// Release is its twin: it logs after unlocking.
func (p *Pool) Release() {
	p.mu.Lock()
	p.inUse--
	p.idle++
	p.mu.Unlock()
	log.Printf("released a connection: %v", p)
}

// CountHeld formats only the pool's address (%p) under the lock: String is
// not called.
func (p *Pool) CountHeld() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("pool %p has %d idle", p, p.idle)
}

// ClosedError is an error that reports the pool's state.
type ClosedError struct {
	mu   sync.RWMutex
	pool string
}

func (e *ClosedError) Error() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return "pool " + e.pool + " is closed"
}

// RenameHeld updates the error under its lock and wraps it: Errorf calls
// Error, which read-locks what is held for writing.
func (e *ClosedError) RenameHeld(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pool = name
	return fmt.Errorf("renamed: %w", e) // want `e.mu read-locked through call of \(\*ClosedError\).Error \(fmt.Errorf formats e\) while held \(locked at formatting.go:68\)`
}

// Rename is its twin.
func (e *ClosedError) Rename(name string) error {
	e.mu.Lock()
	e.pool = name
	e.mu.Unlock()
	return fmt.Errorf("renamed: %w", e)
}
