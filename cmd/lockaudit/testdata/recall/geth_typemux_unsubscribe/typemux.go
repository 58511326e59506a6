// Package geth_typemux_unsubscribe is modelled on go-ethereum's
// event.TypeMux (from memory; the issue number is not recalled): Post
// read-locks the mux and delivers the event to every subscription of its
// type with a blocking send on the subscription's unbuffered channel.
// A subscriber that stops reading and unsubscribes needs the mux's write
// lock to remove itself, so Post (blocked in the send, holding the read
// lock) and Unsubscribe (waiting for the write lock) wait for each other,
// and every later Post queues behind the writer. geth's fix delivers
// outside the mux lock and lets Unsubscribe close a `closing` channel that
// the delivery selects on before it takes any lock.
package geth_typemux_unsubscribe

import (
	"errors"
	"reflect"
	"sync"
	"time"
)

// ErrMuxClosed is returned by Post after Stop.
var ErrMuxClosed = errors.New("event: mux closed")

// TypeMuxEvent is a posted event.
type TypeMuxEvent struct {
	Time time.Time
	Data interface{}
}

// TypeMux dispatches events to subscribers by type. Buggy version.
type TypeMux struct {
	mutex   sync.RWMutex
	subm    map[reflect.Type][]*TypeMuxSubscription
	stopped bool
}

// TypeMuxSubscription is one subscription.
type TypeMuxSubscription struct {
	mux   *TypeMux
	types []reflect.Type
	postC chan *TypeMuxEvent
}

// Subscribe creates a subscription for events of the given types.
func (mux *TypeMux) Subscribe(types ...interface{}) *TypeMuxSubscription {
	sub := &TypeMuxSubscription{mux: mux, postC: make(chan *TypeMuxEvent)}
	mux.mutex.Lock()
	defer mux.mutex.Unlock()
	if mux.subm == nil {
		mux.subm = map[reflect.Type][]*TypeMuxSubscription{}
	}
	for _, t := range types {
		rtyp := reflect.TypeOf(t)
		sub.types = append(sub.types, rtyp)
		mux.subm[rtyp] = append(mux.subm[rtyp], sub)
	}
	return sub
}

// Post sends an event to all subscribers of its type.
func (mux *TypeMux) Post(ev interface{}) error {
	event := &TypeMuxEvent{Time: time.Now(), Data: ev}
	rtyp := reflect.TypeOf(ev)
	mux.mutex.RLock()
	defer mux.mutex.RUnlock()
	if mux.stopped {
		return ErrMuxClosed
	}
	for _, sub := range mux.subm[rtyp] {
		sub.deliver(event) // BUG: blocks with the mux read-locked
	}
	return nil
}

func (mux *TypeMux) del(s *TypeMuxSubscription) {
	mux.mutex.Lock()
	defer mux.mutex.Unlock()
	for _, t := range s.types {
		subs := mux.subm[t]
		for i, sub := range subs {
			if sub == s {
				mux.subm[t] = append(subs[:i:i], subs[i+1:]...)
				break
			}
		}
	}
}

// Chan returns the event channel.
func (s *TypeMuxSubscription) Chan() <-chan *TypeMuxEvent { return s.postC }

// Unsubscribe removes the subscription.
func (s *TypeMuxSubscription) Unsubscribe() { s.mux.del(s) }

func (s *TypeMuxSubscription) deliver(event *TypeMuxEvent) { s.postC <- event }

// TypeMuxFixed is the fixed version.
type TypeMuxFixed struct {
	mutex   sync.RWMutex
	subm    map[reflect.Type][]*TypeMuxSubscriptionFixed
	stopped bool
}

// TypeMuxSubscriptionFixed is one subscription of the fixed mux.
type TypeMuxSubscriptionFixed struct {
	mux       *TypeMuxFixed
	types     []reflect.Type
	postC     chan *TypeMuxEvent
	closing   chan struct{}
	closeOnce sync.Once
}

// Subscribe creates a subscription for events of the given types.
func (mux *TypeMuxFixed) Subscribe(types ...interface{}) *TypeMuxSubscriptionFixed {
	sub := &TypeMuxSubscriptionFixed{mux: mux, postC: make(chan *TypeMuxEvent), closing: make(chan struct{})}
	mux.mutex.Lock()
	defer mux.mutex.Unlock()
	if mux.subm == nil {
		mux.subm = map[reflect.Type][]*TypeMuxSubscriptionFixed{}
	}
	for _, t := range types {
		rtyp := reflect.TypeOf(t)
		sub.types = append(sub.types, rtyp)
		mux.subm[rtyp] = append(mux.subm[rtyp], sub)
	}
	return sub
}

// Post sends an event to all subscribers of its type.
func (mux *TypeMuxFixed) Post(ev interface{}) error {
	event := &TypeMuxEvent{Time: time.Now(), Data: ev}
	rtyp := reflect.TypeOf(ev)
	mux.mutex.RLock()
	if mux.stopped {
		mux.mutex.RUnlock()
		return ErrMuxClosed
	}
	subs := mux.subm[rtyp]
	mux.mutex.RUnlock()
	for _, sub := range subs {
		sub.deliver(event)
	}
	return nil
}

func (mux *TypeMuxFixed) del(s *TypeMuxSubscriptionFixed) {
	mux.mutex.Lock()
	defer mux.mutex.Unlock()
	for _, t := range s.types {
		subs := mux.subm[t]
		for i, sub := range subs {
			if sub == s {
				mux.subm[t] = append(subs[:i:i], subs[i+1:]...)
				break
			}
		}
	}
}

// Chan returns the event channel.
func (s *TypeMuxSubscriptionFixed) Chan() <-chan *TypeMuxEvent { return s.postC }

// Unsubscribe stops deliveries first, then removes the subscription.
func (s *TypeMuxSubscriptionFixed) Unsubscribe() {
	s.closeOnce.Do(func() { close(s.closing) })
	s.mux.del(s)
}

func (s *TypeMuxSubscriptionFixed) deliver(event *TypeMuxEvent) {
	select {
	case s.postC <- event:
	case <-s.closing:
	}
}
