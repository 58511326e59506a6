// Package writegate lets a backup pause a store's writers: Pause returns
// with the gate locked, and Resume unlocks it. Its packages check that a
// lock a package-level function returns held keeps its name two packages
// up (defaultStore.gate.mu, not defaultStore.gate.mu.gate.mu).
package writegate

import "sync"

// Gate admits writers unless a backup has paused them.
type Gate struct {
	mu       sync.Mutex
	inflight sync.WaitGroup
}

// Enter admits one writer.
func (g *Gate) Enter() {
	g.mu.Lock()
	g.inflight.Add(1)
	g.mu.Unlock()
}

// Leave ends a writer's turn.
func (g *Gate) Leave() { g.inflight.Done() }

// Pause returns with the gate locked: new writers wait until Resume.
func (g *Gate) Pause() { g.mu.Lock() }

// Resume lets writers in again.
func (g *Gate) Resume() { g.mu.Unlock() }
