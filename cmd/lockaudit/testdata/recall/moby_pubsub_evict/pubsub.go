// Package moby_pubsub_evict is modelled on moby's pkg/pubsub Publisher as
// used with no send timeout (from memory; the exact upstream issue is not
// recalled): Publish read-locks the publisher, starts one goroutine per
// subscriber to send the value on the subscriber's channel, and waits for
// all of them with a WaitGroup before it read-unlocks. A subscriber that
// stops reading (its client went away) calls Evict, which needs the write
// lock: the send goroutine waits for the subscriber, Publish waits for the
// send goroutine while holding the read lock, and Evict waits for Publish.
package moby_pubsub_evict

import "sync"

type topicFunc func(v interface{}) bool

// Publisher fans values out to subscribers. Buggy version.
type Publisher struct {
	m           sync.RWMutex
	buffer      int
	subscribers map[chan interface{}]topicFunc
}

// NewPublisher returns a publisher whose subscriber channels hold buffer values.
func NewPublisher(buffer int) *Publisher {
	return &Publisher{buffer: buffer, subscribers: map[chan interface{}]topicFunc{}}
}

// SubscribeTopic returns a channel of the values topic accepts.
func (p *Publisher) SubscribeTopic(topic topicFunc) chan interface{} {
	ch := make(chan interface{}, p.buffer)
	p.m.Lock()
	p.subscribers[ch] = topic
	p.m.Unlock()
	return ch
}

// Evict removes and closes a subscriber.
func (p *Publisher) Evict(sub chan interface{}) {
	p.m.Lock()
	if _, ok := p.subscribers[sub]; ok {
		delete(p.subscribers, sub)
		close(sub)
	}
	p.m.Unlock()
}

// Publish sends v to every subscriber.
func (p *Publisher) Publish(v interface{}) {
	p.m.RLock()
	defer p.m.RUnlock()
	wg := new(sync.WaitGroup)
	for sub, topic := range p.subscribers {
		wg.Add(1)
		go p.sendTopic(sub, topic, v, wg)
	}
	wg.Wait() // BUG: a subscriber that evicts itself instead of reading needs p.m
}

func (p *Publisher) sendTopic(sub chan interface{}, topic topicFunc, v interface{}, wg *sync.WaitGroup) {
	defer wg.Done()
	if topic != nil && !topic(v) {
		return
	}
	sub <- v
}

// PublisherFixed is the fixed version: each subscriber has a done channel
// that Evict closes before it takes the lock, and the sends give up on it.
type PublisherFixed struct {
	m           sync.RWMutex
	buffer      int
	subscribers map[chan interface{}]*subscriberFixed
}

type subscriberFixed struct {
	topic topicFunc
	done  chan struct{}
	once  sync.Once
}

// NewPublisherFixed returns a publisher whose subscriber channels hold buffer values.
func NewPublisherFixed(buffer int) *PublisherFixed {
	return &PublisherFixed{buffer: buffer, subscribers: map[chan interface{}]*subscriberFixed{}}
}

// SubscribeTopic returns a channel of the values topic accepts.
func (p *PublisherFixed) SubscribeTopic(topic topicFunc) chan interface{} {
	ch := make(chan interface{}, p.buffer)
	p.m.Lock()
	p.subscribers[ch] = &subscriberFixed{topic: topic, done: make(chan struct{})}
	p.m.Unlock()
	return ch
}

// Evict stops the deliveries to sub, then removes it.
func (p *PublisherFixed) Evict(sub chan interface{}) {
	p.m.RLock()
	s, ok := p.subscribers[sub]
	p.m.RUnlock()
	if !ok {
		return
	}
	s.once.Do(func() { close(s.done) })
	p.m.Lock()
	delete(p.subscribers, sub)
	p.m.Unlock()
}

// Publish sends v to every subscriber.
func (p *PublisherFixed) Publish(v interface{}) {
	p.m.RLock()
	targets := make(map[chan interface{}]*subscriberFixed, len(p.subscribers))
	for sub, s := range p.subscribers {
		targets[sub] = s
	}
	p.m.RUnlock()
	wg := new(sync.WaitGroup)
	for sub, s := range targets {
		wg.Add(1)
		go p.sendTopic(sub, s, v, wg)
	}
	wg.Wait()
}

func (p *PublisherFixed) sendTopic(sub chan interface{}, s *subscriberFixed, v interface{}, wg *sync.WaitGroup) {
	defer wg.Done()
	if s.topic != nil && !s.topic(v) {
		return
	}
	select {
	case sub <- v:
	case <-s.done:
	}
}
