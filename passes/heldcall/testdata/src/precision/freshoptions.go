package precision

import "sync"

// A pubsub topic hands out event handlers configured by functional
// options, under its lock so that Close sees them. The options run on the
// handler the topic has just made, whose fields only the package can set:
// configuration, a note. (options.go's Dial, whose config has exported
// fields, and callbacks/backoff.go's filter handed a new entry keep their
// findings.)

type TopicEventHandler struct {
	topic   *Topic
	bufSize int
	peers   map[string]bool
}

type TopicEventHandlerOpt func(h *TopicEventHandler) error

type TopicOpt func(t *Topic) error

type Topic struct {
	mux      sync.RWMutex
	closed   bool
	name     string
	handlers map[*TopicEventHandler]bool
}

// EventHandler configures a new handler under the read lock.
func (t *Topic) EventHandler(opts ...TopicEventHandlerOpt) (*TopicEventHandler, error) {
	t.mux.RLock()
	defer t.mux.RUnlock()
	if t.closed {
		return nil, nil
	}
	h := &TopicEventHandler{topic: t, bufSize: 32, peers: map[string]bool{}}
	for _, opt := range opts {
		if err := opt(h); err != nil { // want `t.mux held across call of func value opt .*\(plausible: an option applied to an object no other goroutine can reach yet\)`
			return nil, err
		}
	}
	register := func() { t.handlers[h] = true } // h is captured: a variable now
	register()
	return h, nil
}

// Reconfigure is the twin: the options run on the shared topic itself,
// under its write lock.
func (t *Topic) Reconfigure(opts ...TopicOpt) error {
	t.mux.Lock()
	defer t.mux.Unlock()
	for _, opt := range opts {
		if err := opt(t); err != nil { // want `t.mux held across call of func value opt \(locked at freshoptions.go:50, released by defer\)$`
			return err
		}
	}
	return nil
}
