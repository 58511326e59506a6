package precision

import "sync"

// Group starts workers and waits for them. addMu keeps Add from racing
// Wait (a WaitGroup must not be reused while Wait runs): it guards nothing
// but those two calls, so holding it across Wait is its purpose.
type Group struct {
	addMu sync.Mutex
	wg    sync.WaitGroup
}

func (g *Group) Go(f func()) {
	g.addMu.Lock()
	g.wg.Add(1)
	g.addMu.Unlock()
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *Group) Wait() {
	g.addMu.Lock()
	defer g.addMu.Unlock()
	g.wg.Wait() // want `g.addMu held across call of sync.\(\*WaitGroup\).Wait \(locked at purpose.go:24, released by defer\) \(plausible: g.addMu guards nothing but what it is held across\)`
}

// Pool counts its running workers under the same lock it holds across
// Wait: callers of Running block until every worker is done.
type Pool struct {
	mu      sync.Mutex
	wg      sync.WaitGroup
	running int
}

func (p *Pool) Start(f func()) {
	p.mu.Lock()
	p.running++
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		f()
	}()
}

func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running
}

func (p *Pool) DrainHeld() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wg.Wait() // want `p.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at purpose.go:55, released by defer\)`
	p.running = 0
}

// Drain is its twin: it waits with the lock released.
func (p *Pool) Drain() {
	p.wg.Wait()
	p.mu.Lock()
	p.running = 0
	p.mu.Unlock()
}
