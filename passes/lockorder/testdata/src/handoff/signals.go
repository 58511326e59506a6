package handoff

import "sync"

// KeySource streams the keys a reprovider announces. The reprovider calls
// it later, from its own goroutine.
type KeySource func() <-chan string

// Reprovider announces the keys its source gives.
type Reprovider struct {
	source KeySource
	done   chan struct{}
}

// NewReprovider keeps the source for its loop.
func NewReprovider(source KeySource) *Reprovider {
	r := &Reprovider{source: source, done: make(chan struct{})}
	go r.loop()
	return r
}

func (r *Reprovider) loop() {
	defer close(r.done)
	for range r.source() {
	}
}

// AwaitAnnounced locks sent, hands its release to the source's sender
// (a closure the reprovider runs later), and locks it again to wait for
// that sender: the mutex is a signal between goroutines. Not a finding.
func AwaitAnnounced(keys []string) {
	var sent sync.Mutex
	sent.Lock()
	NewReprovider(func() <-chan string {
		ch := make(chan string)
		go func() {
			defer sent.Unlock()
			defer close(ch)
			for _, k := range keys {
				ch <- k
			}
		}()
		return ch
	})
	sent.Lock()
	sent.Unlock()
}

// AwaitAnnouncedHeld is its twin whose sender only counts the keys: no
// code but the function itself releases sent, so the second Lock waits
// for ever.
func AwaitAnnouncedHeld(keys []string) int {
	var sent sync.Mutex
	n := 0
	sent.Lock()
	NewReprovider(func() <-chan string {
		ch := make(chan string)
		go func() {
			defer close(ch)
			for _, k := range keys {
				n++
				ch <- k
			}
		}()
		return ch
	})
	sent.Lock() // want `sent locked again while held \(locked at signals.go:\d+\)`
	sent.Unlock()
	return n
}

// Announcer counts announcements under its lock.
type Announcer struct {
	mu   sync.Mutex
	sent int
}

// AnnounceHeld releases its lock in a deferred closure, which runs at the
// return, in place: the second Lock, before it, waits for ever.
func (a *Announcer) AnnounceHeld(keys []string) {
	a.mu.Lock()
	defer func() { a.mu.Unlock() }()
	a.sent += len(keys)
	a.mu.Lock() // want `a.mu locked again while held \(locked at signals.go:\d+\)`
}

// Announce is its twin that takes the lock once.
func (a *Announcer) Announce(keys []string) {
	a.mu.Lock()
	defer func() { a.mu.Unlock() }()
	a.sent += len(keys)
}
