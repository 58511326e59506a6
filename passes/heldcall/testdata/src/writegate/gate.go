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

// Barrier admits writers until the store shuts down, and then never
// again: Seal leaves its lock held for good, and nothing can release it.
type Barrier struct {
	mu       sync.Mutex
	inflight sync.WaitGroup
}

// Enter admits one writer, or waits for ever once the barrier is sealed.
func (b *Barrier) Enter() {
	b.mu.Lock()
	b.inflight.Add(1)
	b.mu.Unlock()
}

// Leave ends a writer's turn.
func (b *Barrier) Leave() { b.inflight.Done() }

// Seal waits for the writers in flight and leaves the barrier locked, so
// that later writers wait for ever.
func (b *Barrier) Seal() {
	b.mu.Lock()
	b.inflight.Wait() // want `b.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at gate.go:\d+\) \(plausible: b.mu guards nothing but what it is held across\)`
}
