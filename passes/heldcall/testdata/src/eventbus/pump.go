// Package eventbus distributes events to registered handlers. Each
// listener has a pump goroutine, started through spawn's starters, that is
// always ready to take the next event into an unbounded backlog, and a
// runner that hands the backlog to the handler: a send to the pump under
// the bus's lock waits for no handler.
package eventbus

import (
	"sync"

	"eventbus/spawn"
)

type listener struct {
	addCh   chan any
	nextCh  chan any
	backlog []any
	handler func(any)
}

func (p *listener) send(ev any, stop <-chan struct{}) {
	select {
	case <-stop:
	case p.addCh <- ev:
	}
}

// pop takes every event at once, and offers the oldest to run.
func (p *listener) pop(stop <-chan struct{}) {
	defer close(p.nextCh)
	var next chan<- any
	var head any
	for {
		select {
		case <-stop:
			return
		case next <- head:
			if len(p.backlog) == 0 {
				next = nil
				continue
			}
			head, p.backlog = p.backlog[0], p.backlog[1:]
		case ev, ok := <-p.addCh:
			if !ok {
				return
			}
			if next == nil {
				head, next = ev, p.nextCh
			} else {
				p.backlog = append(p.backlog, ev)
			}
		}
	}
}

func (p *listener) run() {
	for ev := range p.nextCh {
		p.handler(ev)
	}
}

// Bus fans events out to its listeners.
type Bus struct {
	mu        sync.RWMutex
	listeners []*listener
	group     spawn.Group
	stop      chan struct{}
}

// Subscribe registers h and starts its listener's goroutines.
func (b *Bus) Subscribe(h func(any)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := &listener{addCh: make(chan any), nextCh: make(chan any), handler: h}
	b.listeners = append(b.listeners, l)
	b.group.Start(l.run)
	b.group.StartWithChannel(b.stop, l.pop)
}

// Publish hands ev to every listener's pump under the read lock: the pumps
// are always ready for it.
func (b *Bus) Publish(ev any) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, l := range b.listeners {
		l.send(ev, b.stop)
	}
}
