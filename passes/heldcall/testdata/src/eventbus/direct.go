package eventbus

import (
	"sync"

	"eventbus/spawn"
)

// directListener has no pump: the goroutine that receives the event runs
// the handler before it receives again.
type directListener struct {
	events  chan any
	handler func(any)
}

func (d *directListener) send(ev any, stop <-chan struct{}) {
	select {
	case <-stop:
	case d.events <- ev:
	}
}

func (d *directListener) run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case ev := <-d.events:
			d.handler(ev)
		}
	}
}

// DirectBus starts each listener through a starter too, but a send to it
// waits for the previous event's handler.
type DirectBus struct {
	mu        sync.RWMutex
	listeners []*directListener
	group     spawn.Group
	stop      chan struct{}
}

// Subscribe registers h and starts its listener.
func (b *DirectBus) Subscribe(h func(any)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := &directListener{events: make(chan any), handler: h}
	b.listeners = append(b.listeners, l)
	b.group.StartWithChannel(b.stop, l.run)
}

// Publish waits for each listener's handler with the lock held.
func (b *DirectBus) Publish(ev any) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, l := range b.listeners {
		l.send(ev, b.stop) // want `b.mu held across call of \(\*directListener\).send, which blocks: \(\*directListener\).send -> select \(locked at direct.go:\d+, released by defer\)`
	}
}
