// Package channels holds channel operations and blocking selects executed
// while a lock is held, each next to its correct twin.
package channels

import (
	"sync"
	"time"
)

// Message is published on a topic.
type Message struct {
	Topic   string
	Payload []byte
}

// Broker is an in-process pub/sub broker.
type Broker struct {
	mu   sync.RWMutex
	subs map[string][]chan Message
}

// PublishHeld sends to every subscriber with the subscription table locked:
// one slow subscriber stops every Subscribe and Publish.
func (b *Broker) PublishHeld(msg Message) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, ch := range b.subs[msg.Topic] {
		ch <- msg // want `b.mu held across channel send \(locked at broker.go:25, released by defer\)`
	}
}

// Publish copies the subscriber list and sends without the lock.
func (b *Broker) Publish(msg Message) {
	b.mu.RLock()
	subs := append([]chan Message(nil), b.subs[msg.Topic]...)
	b.mu.RUnlock()
	for _, ch := range subs {
		ch <- msg
	}
}

// TryPublishHeld waits for a slow subscriber up to a timeout, with the
// table locked the whole time.
func (b *Broker) TryPublishHeld(msg Message, timeout time.Duration) int {
	dropped := 0
	b.mu.RLock()
	for _, ch := range b.subs[msg.Topic] {
		select { // want `b.mu held across blocking select \(locked at broker.go:46\)`
		case ch <- msg:
		case <-time.After(timeout):
			dropped++
		}
	}
	b.mu.RUnlock()
	return dropped
}

// TryPublish drops the message for a subscriber whose buffer is full: a
// select with a default case never blocks.
func (b *Broker) TryPublish(msg Message) int {
	dropped := 0
	b.mu.RLock()
	for _, ch := range b.subs[msg.Topic] {
		select {
		case ch <- msg:
		default:
			dropped++
		}
	}
	b.mu.RUnlock()
	return dropped
}

// Unsubscribe closes the channel under the lock: close never blocks.
func (b *Broker) Unsubscribe(topic string, ch chan Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	list := b.subs[topic]
	for i, c := range list {
		if c == ch {
			b.subs[topic] = append(list[:i], list[i+1:]...)
			close(ch)
			return
		}
	}
}

// Notify hands the message to a goroutine under the lock: starting a
// goroutine does not block the critical section.
func (b *Broker) Notify(topic string, msg Message) {
	b.mu.RLock()
	for _, ch := range b.subs[topic] {
		go func(ch chan Message) { ch <- msg }(ch)
	}
	b.mu.RUnlock()
}

// FirstHeld waits for the first message of a topic's first subscriber
// with the table locked, in a select of one case: Go compiles it to a plain
// receive, but the finding points at the select the user wrote.
func (b *Broker) FirstHeld(topic string) Message {
	b.mu.RLock()
	defer b.mu.RUnlock()
	select { // want `b.mu held across channel receive \(locked at broker.go:102, released by defer\)`
	case msg := <-b.subs[topic][0]:
		return msg
	}
}

// First is its twin: it looks the channel up under the lock and waits
// after releasing it.
func (b *Broker) First(topic string) Message {
	b.mu.RLock()
	ch := b.subs[topic][0]
	b.mu.RUnlock()
	select {
	case msg := <-ch:
		return msg
	}
}
