package precision

import (
	"log"
	"sync"
	"time"
)

// A garbage collector that logs a progress line when a pass takes more
// than a moment: a timer's func logs and closes a channel, and the end of
// the pass waits for that func when the timer already fired, so the lines
// come out in order. The timer's func runs on a goroutine the package
// starts; the wait lasts one log line. A timer func that takes the held
// lock deadlocks the wait. Each positive is next to its silent twin.

type blockGC struct {
	mu     sync.Mutex
	blocks map[string]int
}

// NewBlockGC returns an empty collector.
func NewBlockGC() *blockGC { return &blockGC{blocks: map[string]int{}} }

// Collect drops unreferenced blocks. Not a finding.
func (g *blockGC) Collect() {
	g.mu.Lock()
	defer g.mu.Unlock()
	logged := make(chan struct{})
	timer := time.AfterFunc(10*time.Second, func() {
		log.Println("block GC in progress")
		close(logged)
	})
	defer func() {
		if timer.Stop() {
			return
		}
		<-logged
		log.Println("block GC done")
	}()
	for k, refs := range g.blocks {
		if refs == 0 {
			delete(g.blocks, k)
		}
	}
}

// CollectCounting has the timer's func count the blocks under g.mu, which
// Collect holds until the pass ends: the wait never ends.
func (g *blockGC) CollectCounting() {
	g.mu.Lock()
	defer g.mu.Unlock()
	logged := make(chan struct{})
	timer := time.AfterFunc(10*time.Second, func() {
		g.mu.Lock()
		log.Println("block GC in progress,", len(g.blocks), "blocks")
		g.mu.Unlock()
		close(logged)
	})
	defer func() { // want `g.mu held across deferred call of \(\*blockGC\).CollectCounting.func2, which blocks: \(\*blockGC\).CollectCounting.func2 -> channel receive \(locked at afterfunc.go:\d+, released by defer\)`
		if timer.Stop() {
			return
		}
		<-logged
	}()
	for k, refs := range g.blocks {
		if refs == 0 {
			delete(g.blocks, k)
		}
	}
}

// CollectLogged waits for the progress line whatever the timer did: when
// the pass is quicker than the timer, the wait lasts the ten seconds until
// it fires.
func (g *blockGC) CollectLogged() {
	g.mu.Lock()
	defer g.mu.Unlock()
	logged := make(chan struct{})
	time.AfterFunc(10*time.Second, func() {
		log.Println("block GC in progress")
		close(logged)
	})
	for k, refs := range g.blocks {
		if refs == 0 {
			delete(g.blocks, k)
		}
	}
	<-logged // want `g.mu held across channel receive \(locked at afterfunc.go:\d+, released by defer\)`
}

// quiet is a seam for tests: whether the collector logs at all.
var quiet = func() bool { return false }

// CollectQuietly is Collect behind a func-valued switch: the switch is no
// stop of the timer, and the wait after it is the same short one.
func (g *blockGC) CollectQuietly() {
	g.mu.Lock()
	defer g.mu.Unlock()
	logged := make(chan struct{})
	timer := time.AfterFunc(10*time.Second, func() {
		log.Println("block GC in progress")
		close(logged)
	})
	for k, refs := range g.blocks {
		if refs == 0 {
			delete(g.blocks, k)
		}
	}
	if quiet() {
		return
	}
	if timer.Stop() {
		return
	}
	<-logged
}
