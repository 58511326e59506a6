// Package eventbus distributes events to registered handlers. Each
// listener has a pump goroutine, started through spawn's starters, that is
// always ready to take the next event into an unbounded backlog, and a
// runner that hands the backlog to the handler: a send to the pump under
// the bus's lock waits for no handler. The bus is generic: its pump is
// started through the bound method value of a generic type.
package eventbus

import (
	"sync"

	"eventbus/spawn"
)

type listener[T any] struct {
	addCh   chan T
	nextCh  chan T
	backlog []T
	handler func(T)
}

func (p *listener[T]) send(ev T, stop <-chan struct{}) {
	select {
	case <-stop:
	case p.addCh <- ev:
	}
}

// pop takes every event at once, and offers the oldest to run.
func (p *listener[T]) pop(stop <-chan struct{}) {
	defer close(p.nextCh)
	var next chan<- T
	var head T
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

func (p *listener[T]) run() {
	for ev := range p.nextCh {
		p.handler(ev)
	}
}

// Bus fans events out to its listeners.
type Bus[T any] struct {
	mu        sync.RWMutex
	listeners []*listener[T]
	group     spawn.Group
	stop      chan struct{}
}

// Subscribe registers h and starts its listener's goroutines.
func (b *Bus[T]) Subscribe(h func(T)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := &listener[T]{addCh: make(chan T), nextCh: make(chan T), handler: h}
	b.listeners = append(b.listeners, l)
	b.group.Start(l.run)
	b.group.StartWithChannel(b.stop, l.pop)
}

// Publish hands ev to every listener's pump under the read lock: the pumps
// are always ready for it.
func (b *Bus[T]) Publish(ev T) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, l := range b.listeners {
		l.send(ev, b.stop)
	}
}
