// Package etcd_watchnotify is modelled on an etcd mvcc watchable-store
// deadlock: notify holds the store's mutex while it delivers each batch of
// events to every matching watcher through a helper that sends on the
// watcher's unbuffered channel. The watch stream goroutine that drains the
// channel cancels the watcher when its client goes away, and Cancel needs
// the store's mutex, so a notify blocked on a send to a cancelling stream
// never returns.
package etcd_watchnotify

import (
	"strings"
	"sync"
)

// Event is one key change.
type Event struct {
	Key string
	Rev int64
}

type watcher struct {
	id     int64
	prefix string
	ch     chan []Event
}

// WatchableStore fans key changes out to watchers. Buggy version.
type WatchableStore struct {
	mu       sync.Mutex
	rev      int64
	nextID   int64
	watchers map[int64]*watcher
}

// NewWatchableStore returns an empty store.
func NewWatchableStore() *WatchableStore {
	return &WatchableStore{watchers: make(map[int64]*watcher)}
}

// Watch registers a watcher on prefix.
func (s *WatchableStore) Watch(prefix string) (int64, <-chan []Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	w := &watcher{id: s.nextID, prefix: prefix, ch: make(chan []Event)}
	s.watchers[w.id] = w
	return w.id, w.ch
}

// Cancel removes a watcher.
func (s *WatchableStore) Cancel(id int64) {
	s.mu.Lock()
	delete(s.watchers, id)
	s.mu.Unlock()
}

// Put records a change to key and notifies the watchers.
func (s *WatchableStore) Put(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rev++
	s.notify([]Event{{Key: key, Rev: s.rev}})
}

func (s *WatchableStore) notify(evs []Event) {
	for _, w := range s.watchers {
		if strings.HasPrefix(evs[0].Key, w.prefix) {
			sendEvents(w, evs) // BUG: blocks with s.mu held (locked in Put)
		}
	}
}

func sendEvents(w *watcher, evs []Event) {
	w.ch <- evs
}

// WatchStream forwards one watcher's events to a client.
type WatchStream struct {
	store  *WatchableStore
	closec chan struct{}
	out    func([]Event) error
}

// NewWatchStream returns a stream over store that forwards to out.
func NewWatchStream(store *WatchableStore, out func([]Event) error) *WatchStream {
	return &WatchStream{store: store, closec: make(chan struct{}), out: out}
}

// Close is called when the client goes away.
func (ws *WatchStream) Close() { close(ws.closec) }

// Serve runs the stream until the client closes it.
func (ws *WatchStream) Serve(prefix string) {
	id, ch := ws.store.Watch(prefix)
	for {
		select {
		case evs := <-ch:
			if err := ws.out(evs); err != nil {
				ws.store.Cancel(id)
				return
			}
		case <-ws.closec:
			ws.store.Cancel(id) // needs s.mu while Put may hold it sending to ch
			return
		}
	}
}

// WatchableStoreFixed is the fixed version: a watcher that is not ready is
// not waited for; its events are parked as a victim batch and retried by
// the sync loop.
type WatchableStoreFixed struct {
	mu       sync.Mutex
	rev      int64
	nextID   int64
	watchers map[int64]*watcherFixed
	victims  map[int64][]Event
}

type watcherFixed struct {
	id     int64
	prefix string
	ch     chan []Event
}

// NewWatchableStoreFixed returns an empty store.
func NewWatchableStoreFixed() *WatchableStoreFixed {
	return &WatchableStoreFixed{
		watchers: make(map[int64]*watcherFixed),
		victims:  make(map[int64][]Event),
	}
}

// Watch registers a watcher on prefix.
func (s *WatchableStoreFixed) Watch(prefix string) (int64, <-chan []Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	w := &watcherFixed{id: s.nextID, prefix: prefix, ch: make(chan []Event)}
	s.watchers[w.id] = w
	return w.id, w.ch
}

// Cancel removes a watcher.
func (s *WatchableStoreFixed) Cancel(id int64) {
	s.mu.Lock()
	delete(s.watchers, id)
	delete(s.victims, id)
	s.mu.Unlock()
}

// Put records a change to key and notifies the watchers.
func (s *WatchableStoreFixed) Put(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rev++
	s.notify([]Event{{Key: key, Rev: s.rev}})
}

func (s *WatchableStoreFixed) notify(evs []Event) {
	for _, w := range s.watchers {
		if !strings.HasPrefix(evs[0].Key, w.prefix) {
			continue
		}
		if !trySend(w, evs) {
			s.victims[w.id] = append(s.victims[w.id], evs...)
		}
	}
}

// RetryVictims is run periodically by the store's sync loop.
func (s *WatchableStoreFixed) RetryVictims() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, evs := range s.victims {
		if w, ok := s.watchers[id]; ok && trySend(w, evs) {
			delete(s.victims, id)
		}
	}
}

func trySend(w *watcherFixed, evs []Event) bool {
	select {
	case w.ch <- evs:
		return true
	default:
		return false
	}
}

// WatchStreamFixed forwards one watcher's events to a client.
type WatchStreamFixed struct {
	store  *WatchableStoreFixed
	closec chan struct{}
	out    func([]Event) error
}

// NewWatchStreamFixed returns a stream over store that forwards to out.
func NewWatchStreamFixed(store *WatchableStoreFixed, out func([]Event) error) *WatchStreamFixed {
	return &WatchStreamFixed{store: store, closec: make(chan struct{}), out: out}
}

// Close is called when the client goes away.
func (ws *WatchStreamFixed) Close() { close(ws.closec) }

// Serve runs the stream until the client closes it.
func (ws *WatchStreamFixed) Serve(prefix string) {
	id, ch := ws.store.Watch(prefix)
	for {
		select {
		case evs := <-ch:
			if err := ws.out(evs); err != nil {
				ws.store.Cancel(id)
				return
			}
		case <-ws.closec:
			ws.store.Cancel(id)
			return
		}
	}
}
