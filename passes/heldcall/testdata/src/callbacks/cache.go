// Package callbacks holds callbacks (func parameters, func fields, func
// variables, method values) called while a lock is held, each next to its
// correct twin.
package callbacks

import (
	"net/http"
	"sync"
	"time"
)

// LRU is a size-bounded cache that tells its owner about evictions.
type LRU struct {
	mu      sync.Mutex
	max     int
	order   []string
	items   map[string][]byte
	onEvict func(key string, val []byte)
}

// AddHeld evicts and calls the eviction hook with c.mu held: a hook that
// writes to disk or takes another cache's lock stalls every reader.
func (c *LRU) AddHeld(key string, val []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = val
	c.order = append(c.order, key)
	if len(c.order) > c.max {
		old := c.order[0]
		c.order = c.order[1:]
		ov := c.items[old]
		delete(c.items, old)
		c.onEvict(old, ov) // want `c.mu held across call of func value c.onEvict \(locked at cache.go:24, released by defer\)`
	}
}

// Add collects the evicted entry under the lock and runs the hook after.
func (c *LRU) Add(key string, val []byte) {
	var evKey string
	var evVal []byte
	evicted := false
	c.mu.Lock()
	c.items[key] = val
	c.order = append(c.order, key)
	if len(c.order) > c.max {
		evKey = c.order[0]
		c.order = c.order[1:]
		evVal = c.items[evKey]
		delete(c.items, evKey)
		evicted = true
	}
	c.mu.Unlock()
	if evicted && c.onEvict != nil {
		c.onEvict(evKey, evVal)
	}
}

// Event is a configuration change.
type Event struct {
	Key, Value string
}

// ConfigWatchers fans configuration changes out to registered listeners.
type ConfigWatchers struct {
	mu        sync.RWMutex
	listeners []func(Event)
}

func (w *ConfigWatchers) PublishHeld(ev Event) {
	w.mu.RLock()
	for _, l := range w.listeners {
		l(ev) // want `w.mu held across call of func value l \(locked at cache.go:70\)`
	}
	w.mu.RUnlock()
}

func (w *ConfigWatchers) Publish(ev Event) {
	w.mu.RLock()
	ls := make([]func(Event), len(w.listeners))
	copy(ls, w.listeners)
	w.mu.RUnlock()
	for _, l := range ls {
		l(ev)
	}
}

// Session is a logged-in user's server-side state.
type Session struct {
	ID      string
	User    string
	Expires time.Time
	Values  map[string]string
}

// SessionStore keeps sessions in memory.
type SessionStore struct {
	mu       sync.Mutex
	sessions map[string]*Session
}

// ViewHeld runs the caller's fn with the whole store locked.
func (s *SessionStore) ViewHeld(id string, fn func(Session)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[id]; ok {
		fn(*sess) // want `s.mu held across call of func value fn \(locked at cache.go:103, released by defer\)`
	}
}

// View copies the session under the lock and hands fn the copy.
func (s *SessionStore) View(id string, fn func(Session)) {
	s.mu.Lock()
	sess, ok := s.sessions[id]
	var cp Session
	if ok {
		cp = *sess
	}
	s.mu.Unlock()
	if ok {
		fn(cp)
	}
}

// Router maps paths to handler funcs.
type Router struct {
	mu     sync.RWMutex
	routes map[string]http.HandlerFunc
}

func (r *Router) ServeHeld(w http.ResponseWriter, req *http.Request) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, ok := r.routes[req.URL.Path]
	if !ok {
		h = http.NotFound
	}
	h(w, req) // want `r.mu held across call of func value h \(locked at cache.go:131, released by defer\)`
}

func (r *Router) Serve(w http.ResponseWriter, req *http.Request) {
	r.mu.RLock()
	h, ok := r.routes[req.URL.Path]
	r.mu.RUnlock()
	if !ok {
		h = http.NotFound
	}
	h(w, req)
}

// Subscribe registers a listener: the listeners are the users' code.
func (w *ConfigWatchers) Subscribe(l func(Event)) {
	w.mu.Lock()
	w.listeners = append(w.listeners, l)
	w.mu.Unlock()
}

// Handle registers a route's handler.
func (r *Router) Handle(path string, h http.HandlerFunc) {
	r.mu.Lock()
	r.routes[path] = h
	r.mu.Unlock()
}

// NewLRU returns a cache that calls onEvict, the user's hook, for each
// entry it evicts.
func NewLRU(max int, onEvict func(key string, val []byte)) *LRU {
	return &LRU{max: max, items: map[string][]byte{}, onEvict: onEvict}
}
