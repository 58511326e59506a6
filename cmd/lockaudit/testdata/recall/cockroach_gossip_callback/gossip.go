// Package cockroach_gossip_callback is modelled on CockroachDB's early
// gossip callbacks (from memory; upstream now runs callbacks outside the
// gossip mutex, on their own goroutine): AddInfo stores an info under the
// gossip mutex and, still holding it, runs every callback registered for a
// matching key pattern. The store pool's callback for "store:" infos looks
// up the store's node descriptor with GetInfo, which takes the gossip mutex
// again: the first store descriptor gossiped after the pool registers
// deadlocks gossip.
package cockroach_gossip_callback

import (
	"regexp"
	"strings"
	"sync"
)

// Callback is invoked with each new info of a matching key.
type Callback func(key string, content string)

type callback struct {
	pattern *regexp.Regexp
	method  Callback
}

// Gossip is the node's view of the cluster. Buggy version.
type Gossip struct {
	mu        sync.Mutex
	infos     map[string]string
	callbacks []callback
}

// NewGossip returns an empty gossip instance.
func NewGossip() *Gossip { return &Gossip{infos: map[string]string{}} }

// RegisterCallback runs method for every new info whose key matches pattern.
func (g *Gossip) RegisterCallback(pattern string, method Callback) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.callbacks = append(g.callbacks, callback{pattern: regexp.MustCompile(pattern), method: method})
}

// AddInfo records an info and runs the matching callbacks.
func (g *Gossip) AddInfo(key, content string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.infos[key] = content
	for _, cb := range g.callbacks {
		if cb.pattern.MatchString(key) {
			cb.method(key, content) // BUG: runs foreign code under g.mu
		}
	}
}

// GetInfo returns the info stored under key.
func (g *Gossip) GetInfo(key string) (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.infos[key]
	return v, ok
}

// StorePool tracks store descriptors for the allocator.
type StorePool struct {
	gossip *Gossip
	mu     sync.Mutex
	stores map[string]string
}

// NewStorePool subscribes a store pool to g.
func NewStorePool(g *Gossip) *StorePool {
	sp := &StorePool{gossip: g, stores: map[string]string{}}
	g.RegisterCallback("^store:", sp.storeGossipUpdate)
	return sp
}

func (sp *StorePool) storeGossipUpdate(key, content string) {
	nodeID, _, _ := strings.Cut(content, "/")
	node, _ := sp.gossip.GetInfo("node:" + nodeID)
	sp.mu.Lock()
	sp.stores[key] = node + " " + content
	sp.mu.Unlock()
}

// GossipFixed is the fixed version: callbacks run after the mutex is
// released, on a copy of the matching callbacks.
type GossipFixed struct {
	mu        sync.Mutex
	infos     map[string]string
	callbacks []callback
}

// NewGossipFixed returns an empty gossip instance.
func NewGossipFixed() *GossipFixed { return &GossipFixed{infos: map[string]string{}} }

// RegisterCallback runs method for every new info whose key matches pattern.
func (g *GossipFixed) RegisterCallback(pattern string, method Callback) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.callbacks = append(g.callbacks, callback{pattern: regexp.MustCompile(pattern), method: method})
}

// AddInfo records an info and runs the matching callbacks.
func (g *GossipFixed) AddInfo(key, content string) {
	g.mu.Lock()
	g.infos[key] = content
	var run []Callback
	for _, cb := range g.callbacks {
		if cb.pattern.MatchString(key) {
			run = append(run, cb.method)
		}
	}
	g.mu.Unlock()
	for _, f := range run {
		f(key, content)
	}
}

// GetInfo returns the info stored under key.
func (g *GossipFixed) GetInfo(key string) (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.infos[key]
	return v, ok
}

// StorePoolFixed tracks store descriptors for the allocator.
type StorePoolFixed struct {
	gossip *GossipFixed
	mu     sync.Mutex
	stores map[string]string
}

// NewStorePoolFixed subscribes a store pool to g.
func NewStorePoolFixed(g *GossipFixed) *StorePoolFixed {
	sp := &StorePoolFixed{gossip: g, stores: map[string]string{}}
	g.RegisterCallback("^store:", sp.storeGossipUpdate)
	return sp
}

func (sp *StorePoolFixed) storeGossipUpdate(key, content string) {
	nodeID, _, _ := strings.Cut(content, "/")
	node, _ := sp.gossip.GetInfo("node:" + nodeID)
	sp.mu.Lock()
	sp.stores[key] = node + " " + content
	sp.mu.Unlock()
}
