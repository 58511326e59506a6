package precision

import (
	"sync"
	"time"
)

// An invoice expiry watcher: Start and Stop take w.mu to keep a stop from
// overlapping a start, and nothing else takes it. Stop waits for the main
// loop with the lock held, which delays only another Start or Stop; the
// loop never takes w.mu. A note, not a warning.

type invoiceDB interface {
	CancelInvoice(hash string) error
}

type ExpiryWatcher struct {
	mu      sync.Mutex
	started bool
	quit    chan struct{}
	wg      sync.WaitGroup
	expire  chan string
	db      invoiceDB
}

func (w *ExpiryWatcher) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started {
		return
	}
	w.started = true
	w.quit = make(chan struct{})
	w.wg.Add(1)
	go w.mainLoop()
}

func (w *ExpiryWatcher) mainLoop() {
	defer w.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case hash := <-w.expire:
			_ = w.db.CancelInvoice(hash)
		case <-w.quit:
			return
		}
	}
}

func (w *ExpiryWatcher) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started {
		return
	}
	w.started = false
	close(w.quit)
	w.wg.Wait() // want `w.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at lifecycle.go:\d+, released by defer\) \(plausible: w.mu is taken only to start and stop, and no goroutine of the package takes it\)`
}

// FailingWatcher is its twin whose loop stops the watcher itself on a
// fatal error: the loop waits for w.mu, which Stop holds while it waits
// for the loop.

type FailingWatcher struct {
	mu      sync.Mutex
	started bool
	quit    chan struct{}
	wg      sync.WaitGroup
	fatal   chan error
}

func (w *FailingWatcher) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started = true
	w.quit = make(chan struct{})
	w.wg.Add(1)
	go w.mainLoop()
}

func (w *FailingWatcher) mainLoop() {
	defer w.wg.Done()
	select {
	case <-w.fatal:
		w.Stop()
	case <-w.quit:
	}
}

func (w *FailingWatcher) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started {
		return
	}
	w.started = false
	close(w.quit)
	w.wg.Wait() // want `w.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at lifecycle.go:\d+, released by defer\)$`
}

// ReportingWatcher is its twin whose lock also guards what a status call
// reads: a health check waits for the whole stop.

type ReportingWatcher struct {
	mu      sync.Mutex
	started bool
	quit    chan struct{}
	wg      sync.WaitGroup
	expire  chan string
	db      invoiceDB
}

func (w *ReportingWatcher) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started = true
	w.quit = make(chan struct{})
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			select {
			case hash := <-w.expire:
				_ = w.db.CancelInvoice(hash)
			case <-w.quit:
				return
			}
		}
	}()
}

func (w *ReportingWatcher) Running() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.started
}

func (w *ReportingWatcher) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started = false
	close(w.quit)
	w.wg.Wait() // want `w.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at lifecycle.go:\d+, released by defer\)$`
}
