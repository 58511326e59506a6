package precision

import (
	"context"
	"net/http"
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

// An HTTP listener embeds its lock, and only Close takes it: shutting the
// server down under it delays nothing but a second Close. Embedding
// promotes Lock to the listener's methods, but nothing in the package
// locks it elsewhere.

type HTTPListener struct {
	sync.RWMutex
	server *http.Server
	closed bool
}

func (l *HTTPListener) Serve() error {
	return l.server.ListenAndServe()
}

func (l *HTTPListener) Close(ctx context.Context) {
	l.Lock()
	defer l.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	_ = l.server.Shutdown(ctx) // want `l.RWMutex held across call of http.\(\*Server\).Shutdown \(locked at lifecycle.go:\d+, released by defer\) \(plausible: l.RWMutex is taken only to start and stop, and no goroutine of the package takes it\)`
}

// StatsListener is its twin whose lock a status call also takes: a
// health check waits for the whole shutdown.

type StatsListener struct {
	sync.RWMutex
	server *http.Server
	closed bool
}

func (l *StatsListener) Closed() bool {
	l.RLock()
	defer l.RUnlock()
	return l.closed
}

func (l *StatsListener) Close(ctx context.Context) {
	l.Lock()
	defer l.Unlock()
	l.closed = true
	_ = l.server.Shutdown(ctx) // want `l.RWMutex held across call of http.\(\*Server\).Shutdown \(locked at lifecycle.go:\d+, released by defer\)$`
}
