package precision

import "sync"

// The scrape manager of wgjoins.go, in a file analysed before its loops:
// the loops' own waits must be decided before the manager's wait on the
// goroutines that stop them is judged.

type scrapeManager struct {
	mu    sync.Mutex
	loops map[string]*scrapeLoop
}

// NewScrapeManager starts a loop per target.
func NewScrapeManager(targets []string) *scrapeManager {
	m := &scrapeManager{loops: map[string]*scrapeLoop{}}
	for _, t := range targets {
		m.loops[t] = newScrapeLoop(t)
	}
	return m
}

// Targets lists the targets scraped.
func (m *scrapeManager) Targets() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for t := range m.loops {
		out = append(out, t)
	}
	return out
}

// StopAll stops every loop in parallel, holding m.mu until the slowest
// scrape ends.
func (m *scrapeManager) StopAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range m.loops {
		wg.Add(1)
		go func(l *scrapeLoop) {
			defer wg.Done()
			l.stop()
		}(l)
	}
	wg.Wait() // want `m.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at reload.go:\d+, released by defer\)`
}
