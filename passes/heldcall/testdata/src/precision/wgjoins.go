package precision

import (
	"os"
	"sort"
	"sync"
)

// An index that sorts its postings lists in parallel while it holds its
// lock: the WaitGroup waits for goroutines the index starts itself, which
// only compute. That wait lasts as long as the computation, like any work
// done under the lock. Goroutines that take the held lock, or write files,
// make the wait a deadlock or a wait on I/O. Each positive is next to its
// silent twin.

type postingsIndex struct {
	mu    sync.Mutex
	lists map[string][]int
	dir   string
}

// NewPostingsIndex returns an empty index.
func NewPostingsIndex(dir string) *postingsIndex {
	return &postingsIndex{lists: map[string][]int{}, dir: dir}
}

// SortAll sorts every list on its own goroutine. Not a finding.
func (x *postingsIndex) SortAll() {
	x.mu.Lock()
	defer x.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range x.lists {
		wg.Add(1)
		go func(l []int) {
			defer wg.Done()
			sort.Ints(l)
		}(l)
	}
	wg.Wait()
}

// SortAllCounted has each goroutine count its list under the index's own
// lock, which SortAll's caller holds: the goroutines never finish.
func (x *postingsIndex) SortAllCounted(counts map[string]int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var wg sync.WaitGroup
	for name, l := range x.lists {
		wg.Add(1)
		go func(name string, l []int) {
			defer wg.Done()
			sort.Ints(l)
			x.mu.Lock()
			counts[name] = len(l)
			x.mu.Unlock()
		}(name, l)
	}
	wg.Wait() // want `x.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at wgjoins.go:\d+, released by defer\)`
}

// FlushAll writes every list to its file in parallel, with the lock held
// across the writes.
func (x *postingsIndex) FlushAll() {
	x.mu.Lock()
	defer x.mu.Unlock()
	var wg sync.WaitGroup
	for name := range x.lists {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			_ = os.WriteFile(x.dir+"/"+name, nil, 0o644)
		}(name)
	}
	wg.Wait() // want `x.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at wgjoins.go:\d+, released by defer\)`
}

// A scrape manager that reloads its pools in parallel under its lock.
// Each pool's stop waits for its loop, which scrapes over the network:
// the manager's wait lasts as long as the slowest scrape.

type scrapeLoop struct {
	stopped chan struct{}
	quit    chan struct{}
	target  string
}

func newScrapeLoop(target string) *scrapeLoop {
	l := &scrapeLoop{stopped: make(chan struct{}), quit: make(chan struct{}), target: target}
	go l.run()
	return l
}

func (l *scrapeLoop) run() {
	defer close(l.stopped)
	for {
		select {
		case <-l.quit:
			return
		default:
		}
		_, _ = os.ReadFile(l.target) // a scrape
	}
}

func (l *scrapeLoop) stop() {
	close(l.quit)
	<-l.stopped
}

// Wait is the index's own helper named like the WaitGroup's method: it
// waits for the sorters, then marks the pass in a journal file. It is a
// call like any other, judged by what it does.
func Wait(wg *sync.WaitGroup) {
	wg.Wait()
	_ = os.WriteFile("sorted.journal", nil, 0o644)
}

// SortAllJournaled sorts like SortAll, then waits through the helper,
// whose journal write holds the lock.
func (x *postingsIndex) SortAllJournaled() {
	x.mu.Lock()
	defer x.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range x.lists {
		wg.Add(1)
		go func(l []int) {
			defer wg.Done()
			sort.Ints(l)
		}(l)
	}
	Wait(&wg) // want `x.mu held across call of Wait, which blocks: Wait -> os.WriteFile \(locked at wgjoins.go:\d+, released by defer\)`
}
