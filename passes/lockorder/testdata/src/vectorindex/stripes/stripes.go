// Package stripes is a table of read-write locks striped by id, which a
// vector index's graph and its posting lists each make their own of.
package stripes

import "sync"

// Locks is a striped lock table.
type Locks struct {
	stripes []sync.RWMutex
}

// New makes a table of n stripes.
func New(n int) *Locks { return &Locks{stripes: make([]sync.RWMutex, n)} }

// Lock locks id's stripe.
func (l *Locks) Lock(id uint64) { l.stripes[id%uint64(len(l.stripes))].Lock() }

// Unlock unlocks id's stripe.
func (l *Locks) Unlock(id uint64) { l.stripes[id%uint64(len(l.stripes))].Unlock() }
