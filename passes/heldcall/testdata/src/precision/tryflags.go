package precision

import (
	"sync"
	"time"
)

// A DHT provider runs its reprovide loop at most once at a time: the loop
// takes a mutex with TryLock and returns when another run holds it. Nobody
// ever waits for that mutex, so the loop holding it across the wait for
// its workers delays no one.

type reprovider struct {
	running   sync.Mutex // only ever tried: a "loop is running" flag
	prefixMu  sync.Mutex // tried by the loop, waited for by Close
	workers   sync.WaitGroup
	keys      []string
	published map[string]time.Time
}

func (r *reprovider) publish(key string) {
	defer r.workers.Done()
	time.Sleep(10 * time.Millisecond) // a network round trip
	_ = key
}

// provideLoop skips when a run is in progress.
func (r *reprovider) provideLoop() {
	if !r.running.TryLock() {
		return
	}
	defer r.running.Unlock()
	for _, k := range r.keys {
		r.workers.Add(1)
		go r.publish(k)
	}
	r.workers.Wait() // want `r.running held across call of sync.\(\*WaitGroup\).Wait .*\(plausible: r.running is only ever taken with TryLock: nobody waits for it\)`
}

// approxPrefix is the twin: Close waits for the same mutex with Lock, so
// the wait under it holds Close up.
func (r *reprovider) approxPrefix() {
	if !r.prefixMu.TryLock() {
		return
	}
	defer r.prefixMu.Unlock()
	for _, k := range r.keys {
		r.workers.Add(1)
		go r.publish(k)
	}
	r.workers.Wait() // want `r.prefixMu held across call of sync.\(\*WaitGroup\).Wait \(locked at tryflags.go:43, released by defer\)$`
}

// Close waits for a prefix estimate in flight.
func (r *reprovider) Close() {
	r.prefixMu.Lock()
	defer r.prefixMu.Unlock()
	r.keys = nil
}
