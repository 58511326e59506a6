// Package chancycle holds sends under a lock whose receiver takes the same
// lock before it receives again, next to their twins.
package chancycle

import (
	"sync"
	"sync/atomic"
)

// Event is a change to a subscription.
type Event struct{ Topic string }

// Bus delivers events to a background loop that applies them under the
// bus's lock.
type Bus struct {
	mu     sync.Mutex
	topics map[string]int
	events chan Event
}

// NewBus starts the bus's loop.
func NewBus() *Bus {
	b := &Bus{topics: map[string]int{}, events: make(chan Event, 64)}
	go b.loop()
	return b
}

// loop receives events and applies each under the lock.
func (b *Bus) loop() {
	for ev := range b.events {
		b.apply(ev)
	}
}

func (b *Bus) apply(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.topics[ev.Topic]++
}

// SubscribeHeld sends under the lock: once the buffer is full, the loop
// waits for b.mu to apply the event ahead, and this send waits for the
// loop.
func (b *Bus) SubscribeHeld(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.topics[topic] = 0
	b.events <- Event{Topic: topic} // want `b.mu held across channel send, whose receiver \(bus.go:30\) takes b.mu before it receives again \(locked at bus.go:45, released by defer\)`
}

// Subscribe is its twin: it sends after releasing the lock.
func (b *Bus) Subscribe(topic string) {
	b.mu.Lock()
	b.topics[topic] = 0
	b.mu.Unlock()
	b.events <- Event{Topic: topic}
}

// Metrics counts events; its loop never takes the lock the senders hold.
type Metrics struct {
	mu     sync.Mutex
	counts map[string]int
	queue  chan string
	total  atomic.Int64
}

// NewMetrics starts the counting loop.
func NewMetrics() *Metrics {
	m := &Metrics{counts: map[string]int{}, queue: make(chan string, 64)}
	go func() {
		for range m.queue {
			m.total.Add(1)
		}
	}()
	return m
}

// Record sends on a buffered channel under the lock; the receiver takes
// no lock, so the send waits at most for the loop to catch up.
func (m *Metrics) Record(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[name]++
	m.queue <- name
}
