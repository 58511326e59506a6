// Models etcd commit 7618fdd (GoKer etcd_6873): watchBroadcasts.stop holds wbs.mu, closes updatec and waits on donec, but the coalescing goroutine that must close donec takes wbs.mu in coalesce first (lock held across a receive; the goroutine that closes the channel via defer needs the lock).
package etcd_wbs_stop

import (
	"context"
	"sync"
)

type watchBroadcast struct {
	cancel  context.CancelFunc
	nextrev int64
	size    int
}

func (wb *watchBroadcast) stop() { wb.cancel() }

// watchBroadcasts groups the proxy's broadcasts. Buggy version.
type watchBroadcasts struct {
	mu      sync.Mutex
	bcasts  map[*watchBroadcast]struct{}
	updatec chan *watchBroadcast
	donec   chan struct{}
}

func newWatchBroadcasts() *watchBroadcasts {
	wbs := &watchBroadcasts{
		bcasts:  map[*watchBroadcast]struct{}{},
		updatec: make(chan *watchBroadcast, 1),
		donec:   make(chan struct{}),
	}
	go func() {
		defer close(wbs.donec)
		for wb := range wbs.updatec {
			wbs.coalesce(wb)
		}
	}()
	return wbs
}

// coalesce merges wb into a broadcast at the same revision.
func (wbs *watchBroadcasts) coalesce(wb *watchBroadcast) {
	wbs.mu.Lock()
	defer wbs.mu.Unlock()
	for wbswb := range wbs.bcasts {
		if wbswb != wb && wbswb.nextrev == wb.nextrev {
			wbswb.size += wb.size
			delete(wbs.bcasts, wb)
			wb.stop()
			return
		}
	}
}

func (wbs *watchBroadcasts) update(wb *watchBroadcast) {
	select {
	case wbs.updatec <- wb:
	default:
	}
}

func (wbs *watchBroadcasts) stop() {
	wbs.mu.Lock()
	defer wbs.mu.Unlock()
	for wb := range wbs.bcasts {
		wb.stop()
	}
	wbs.bcasts = nil
	close(wbs.updatec)
	<-wbs.donec // BUG: waits for the coalescer, which may be blocked on wbs.mu
}

// watchBroadcastsFixed is the fixed version: stop waits for donec after
// releasing wbs.mu.
type watchBroadcastsFixed struct {
	mu      sync.Mutex
	bcasts  map[*watchBroadcast]struct{}
	updatec chan *watchBroadcast
	donec   chan struct{}
}

func newWatchBroadcastsFixed() *watchBroadcastsFixed {
	wbs := &watchBroadcastsFixed{
		bcasts:  map[*watchBroadcast]struct{}{},
		updatec: make(chan *watchBroadcast, 1),
		donec:   make(chan struct{}),
	}
	go func() {
		defer close(wbs.donec)
		for wb := range wbs.updatec {
			wbs.coalesce(wb)
		}
	}()
	return wbs
}

func (wbs *watchBroadcastsFixed) coalesce(wb *watchBroadcast) {
	wbs.mu.Lock()
	defer wbs.mu.Unlock()
	for wbswb := range wbs.bcasts {
		if wbswb != wb && wbswb.nextrev == wb.nextrev {
			wbswb.size += wb.size
			delete(wbs.bcasts, wb)
			wb.stop()
			return
		}
	}
}

func (wbs *watchBroadcastsFixed) update(wb *watchBroadcast) {
	select {
	case wbs.updatec <- wb:
	default:
	}
}

func (wbs *watchBroadcastsFixed) stop() {
	wbs.mu.Lock()
	for wb := range wbs.bcasts {
		wb.stop()
	}
	wbs.bcasts = nil
	close(wbs.updatec)
	wbs.mu.Unlock()
	<-wbs.donec
}
