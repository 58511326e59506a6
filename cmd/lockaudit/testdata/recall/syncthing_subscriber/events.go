// Package syncthing_subscriber is modelled on a Syncthing events-logger
// deadlock: Log delivers each event to every subscription through the
// Subscriber interface while holding the logger's mutex. The bundled
// channel subscriber's Deliver blocks on an unbuffered channel until the
// subscriber's goroutine receives, and that goroutine unsubscribes when
// its client goes away, which takes the logger's mutex.
package syncthing_subscriber

import "sync"

// Event is one event.
type Event struct {
	ID   int
	Type string
}

// Subscriber receives events.
type Subscriber interface {
	Deliver(ev Event)
}

// ChanSubscriber delivers events on an unbuffered channel.
type ChanSubscriber struct {
	C chan Event
}

// Deliver sends ev on s.C.
func (s *ChanSubscriber) Deliver(ev Event) { s.C <- ev }

// Logger fans events out to subscribers. Buggy version.
type Logger struct {
	mu     sync.Mutex
	nextID int
	subs   map[Subscriber]bool
}

// NewLogger returns a logger with no subscribers.
func NewLogger() *Logger { return &Logger{subs: map[Subscriber]bool{}} }

// Subscribe adds s.
func (l *Logger) Subscribe(s Subscriber) {
	l.mu.Lock()
	l.subs[s] = true
	l.mu.Unlock()
}

// Unsubscribe removes s.
func (l *Logger) Unsubscribe(s Subscriber) {
	l.mu.Lock()
	delete(l.subs, s)
	l.mu.Unlock()
}

// Log publishes an event of type t.
func (l *Logger) Log(t string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nextID++
	ev := Event{ID: l.nextID, Type: t}
	for s := range l.subs {
		s.Deliver(ev) // BUG: may block on a subscriber that is waiting for l.mu in Unsubscribe
	}
}

// Forward subscribes a channel subscriber and forwards n events to out,
// then unsubscribes.
func Forward(l *Logger, n int, out func(Event) error) {
	s := &ChanSubscriber{C: make(chan Event)}
	l.Subscribe(s)
	defer l.Unsubscribe(s)
	for i := 0; i < n; i++ {
		if err := out(<-s.C); err != nil {
			return
		}
	}
}

// LoggerFixed is the fixed version: the subscriber list is copied under
// the mutex and the events are delivered after it is released.
type LoggerFixed struct {
	mu     sync.Mutex
	nextID int
	subs   map[Subscriber]bool
}

// NewLoggerFixed returns a logger with no subscribers.
func NewLoggerFixed() *LoggerFixed { return &LoggerFixed{subs: map[Subscriber]bool{}} }

// Subscribe adds s.
func (l *LoggerFixed) Subscribe(s Subscriber) {
	l.mu.Lock()
	l.subs[s] = true
	l.mu.Unlock()
}

// Unsubscribe removes s.
func (l *LoggerFixed) Unsubscribe(s Subscriber) {
	l.mu.Lock()
	delete(l.subs, s)
	l.mu.Unlock()
}

// Log publishes an event of type t.
func (l *LoggerFixed) Log(t string) {
	l.mu.Lock()
	l.nextID++
	ev := Event{ID: l.nextID, Type: t}
	subs := make([]Subscriber, 0, len(l.subs))
	for s := range l.subs {
		subs = append(subs, s)
	}
	l.mu.Unlock()
	for _, s := range subs {
		s.Deliver(ev)
	}
}
