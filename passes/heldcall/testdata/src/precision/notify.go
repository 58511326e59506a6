package precision

import (
	"sync"
	"time"
)

// A payment store notifies every subscriber of an attempt's result. Each
// subscriber gets a channel of its own, made with room for the one result
// it will ever get, and kept in a list per attempt. The send under the
// lock fills that slot: it does not wait for the subscriber.

type attemptResult struct{ preimage [32]byte }

type ResultStore struct {
	mu      sync.Mutex
	waiters map[uint64][]chan *attemptResult
}

func (s *ResultStore) Subscribe(attempt uint64) <-chan *attemptResult {
	ch := make(chan *attemptResult, 1)
	s.mu.Lock()
	s.waiters[attempt] = append(s.waiters[attempt], ch)
	s.mu.Unlock()
	return ch
}

func (s *ResultStore) Unsubscribe(attempt uint64, i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.waiters[attempt]
	s.waiters[attempt] = append(l[:i], l[i+1:]...)
}

func (s *ResultStore) Store(attempt uint64, r *attemptResult) {
	s.mu.Lock()
	for _, ch := range s.waiters[attempt] {
		ch <- r
	}
	delete(s.waiters, attempt)
	s.mu.Unlock()
}

// SyncResultStore is the twin whose subscribers get unbuffered channels:
// the send waits until each subscriber receives, with the lock held.

type syncResult struct{ preimage [32]byte }

type SyncResultStore struct {
	mu      sync.Mutex
	waiters map[uint64][]chan *syncResult
}

func (s *SyncResultStore) Subscribe(attempt uint64) <-chan *syncResult {
	ch := make(chan *syncResult)
	s.mu.Lock()
	s.waiters[attempt] = append(s.waiters[attempt], ch)
	s.mu.Unlock()
	return ch
}

func (s *SyncResultStore) Store(attempt uint64, r *syncResult) {
	s.mu.Lock()
	for _, ch := range s.waiters[attempt] {
		ch <- r // want `s.mu held across channel send \(locked at notify.go:\d+\)`
	}
	delete(s.waiters, attempt)
	s.mu.Unlock()
}

// A channel watcher tells its subscribers that the channel closed. Each
// subscription's channel has room for the one event, and the select also
// gives up on quit: it never waits longer than the plain buffered send.

type closeEvent struct{ height uint32 }

type chanSubscription struct {
	closed chan *closeEvent
}

type ChanWatcher struct {
	mu   sync.Mutex
	subs map[uint64]*chanSubscription
	quit chan struct{}
}

func (w *ChanWatcher) Subscribe(id uint64) *chanSubscription {
	sub := &chanSubscription{closed: make(chan *closeEvent, 1)}
	w.mu.Lock()
	w.subs[id] = sub
	w.mu.Unlock()
	return sub
}

func (w *ChanWatcher) DispatchClose(ev *closeEvent) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, sub := range w.subs {
		select {
		case sub.closed <- ev:
		case <-w.quit:
			return false
		}
	}
	return true
}

func (w *ChanWatcher) notify(sub *chanSubscription, ev *closeEvent) {
	select {
	case sub.closed <- ev:
	case <-w.quit:
	}
}

func (w *ChanWatcher) DispatchVia(ev *closeEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, sub := range w.subs {
		w.notify(sub, ev)
	}
}

// SyncChanWatcher is the twin with unbuffered subscription channels: the
// select waits for each subscriber (or quit) with the lock held.

type syncSubscription struct {
	closed chan *closeEvent
}

type SyncChanWatcher struct {
	mu   sync.Mutex
	subs map[uint64]*syncSubscription
	quit chan struct{}
}

func (w *SyncChanWatcher) Subscribe(id uint64) *syncSubscription {
	sub := &syncSubscription{closed: make(chan *closeEvent)}
	w.mu.Lock()
	w.subs[id] = sub
	w.mu.Unlock()
	return sub
}

func (w *SyncChanWatcher) DispatchClose(ev *closeEvent) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, sub := range w.subs {
		select { // want `w.mu held across blocking select \(locked at notify.go:\d+, released by defer\)`
		case sub.closed <- ev:
		case <-w.quit:
			return false
		}
	}
	return true
}

func (w *SyncChanWatcher) notify(sub *syncSubscription, ev *closeEvent) {
	select {
	case sub.closed <- ev:
	case <-w.quit:
	}
}

func (w *SyncChanWatcher) DispatchVia(ev *closeEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, sub := range w.subs {
		w.notify(sub, ev) // want `w.mu held across call of \(\*SyncChanWatcher\).notify, which blocks: \(\*SyncChanWatcher\).notify -> select \(locked at notify.go:\d+, released by defer\)`
	}
}

// An event bus whose consumer takes the bus's lock before each receive:
// once the buffer is full, a publisher that holds the lock waits for a
// consumer that waits for the lock. The buffer does not make the select a
// hand-off here.

type eventBus struct {
	mu     sync.Mutex
	events chan string
	quit   chan struct{}
	seen   int
}

func newEventBus() *eventBus {
	b := &eventBus{events: make(chan string, 16), quit: make(chan struct{})}
	go b.consume()
	return b
}

func (b *eventBus) consume() {
	for {
		b.mu.Lock()
		b.seen++
		b.mu.Unlock()
		select {
		case <-b.events:
		case <-b.quit:
			return
		}
	}
}

func (b *eventBus) Publish(ev string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select { // want `b.mu held across blocking select \(locked at notify.go:\d+, released by defer\)`
	case b.events <- ev:
	case <-b.quit:
	}
}

// A throttle hands out slots with a select over a semaphore channel and
// the errors of earlier work: the send takes a slot, and waits while every
// slot is taken. The buffer is the semaphore, not a hand-off.

type throttle struct {
	slots chan struct{}
	errs  chan error
}

func newThrottle(max int) *throttle {
	return &throttle{slots: make(chan struct{}, max), errs: make(chan error, max)}
}

func (t *throttle) acquire() error {
	select {
	case t.slots <- struct{}{}:
		return nil
	case err := <-t.errs:
		return err
	}
}

type BatchWriter struct {
	mu       sync.Mutex
	throttle *throttle
	pending  [][]byte
}

func (w *BatchWriter) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.throttle.acquire(); err != nil { // want `w.mu held across call of \(\*throttle\).acquire, which blocks: \(\*throttle\).acquire -> select \(locked at notify.go:\d+, released by defer\)`
		return err
	}
	w.pending = nil
	return nil
}

// A pubsub server whose command queue is as large as its option says:
// zero, unless the user sets it. Publishing waits for the server's loop.

type pubsubCmd struct{ event string }

type PubSub struct {
	cmds    chan pubsubCmd
	cmdsCap int
	quit    chan struct{}
}

func NewPubSub(capacity int) *PubSub {
	s := &PubSub{cmdsCap: capacity, quit: make(chan struct{})}
	s.cmds = make(chan pubsubCmd, s.cmdsCap)
	return s
}

func (s *PubSub) publish(ev string) {
	select {
	case s.cmds <- pubsubCmd{ev}:
	case <-s.quit:
	}
}

type ConsensusState struct {
	mu    sync.Mutex
	round int
	bus   *PubSub
}

func (cs *ConsensusState) EnterRound(r int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.round = r
	cs.bus.publish("new-round") // want `cs.mu held across call of \(\*PubSub\).publish, which blocks: \(\*PubSub\).publish -> select \(locked at notify.go:\d+, released by defer\)`
}

// A watch proxy posts each response to the stream's buffered channel, and
// gives up after 50 ms: the timeout says the buffer can fill, and the
// broadcast holds its lock for each slow stream in turn.

type watchResponse struct{ revision int64 }

type watchStream struct {
	ch chan *watchResponse
}

func newWatchStream() *watchStream {
	return &watchStream{ch: make(chan *watchResponse, 1024)}
}

func (w *watchStream) post(r *watchResponse) bool {
	select {
	case w.ch <- r:
		return true
	case <-time.After(50 * time.Millisecond):
		return false
	}
}

type WatchBroadcast struct {
	mu      sync.Mutex
	streams []*watchStream
}

func (b *WatchBroadcast) Broadcast(r *watchResponse) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, w := range b.streams {
		w.post(r) // want `b.mu held across call of \(\*watchStream\).post, which blocks: \(\*watchStream\).post -> select \(locked at notify.go:\d+, released by defer\)`
	}
}
