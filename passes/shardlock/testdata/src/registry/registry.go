// Package registry is a service registry built on package shardset's
// shards: its own lock, or the table-wide lock, held above shards picked by
// a selector of another package, each next to its correct twin.
package registry

import (
	"sync"

	"shardset"
)

// Registry keeps its services in a shard set built once; mu guards
// draining.
type Registry struct {
	mu       sync.RWMutex
	services shardset.Set // want services:"shardlock\\(fixed partition\\)"
	draining bool
}

func New() *Registry { return &Registry{services: shardset.New(16)} }

// LookupHeld keeps the registry's lock while the service's shard is read.
func (r *Registry) LookupHeld(name string) any {
	r.mu.RLock() // want `r.mu is held above the shard lock sh.Mu \(taken at registry.go:30\): one lock serialises the shards again`
	defer r.mu.RUnlock()
	if r.draining {
		return nil
	}
	sh := r.services.For(name)
	sh.Mu.Lock()
	defer sh.Mu.Unlock()
	return sh.Items[name]
}

// Lookup is its twin.
func (r *Registry) Lookup(name string) any {
	r.mu.RLock()
	draining := r.draining
	r.mu.RUnlock()
	if draining {
		return nil
	}
	sh := r.services.For(name)
	sh.Mu.Lock()
	defer sh.Mu.Unlock()
	return sh.Items[name]
}

// Router keeps its routes in a shardset.Table.
type Router struct {
	routes *shardset.Table
}

// AddHeld holds the table-wide lock while the route's shard is locked.
func (rt *Router) AddHeld(path string, h any) {
	rt.routes.Mu.RLock() // want `rt.routes.Mu is held above the shard lock sh.Mu \(taken at registry.go:59\): one lock serialises the shards again`
	defer rt.routes.Mu.RUnlock()
	sh := rt.routes.Shard(path)
	sh.Mu.Lock()
	sh.Items[path] = h
	sh.Mu.Unlock()
}

// Add is its twin.
func (rt *Router) Add(path string, h any) {
	sh := rt.routes.Shard(path)
	sh.Mu.Lock()
	sh.Items[path] = h
	sh.Mu.Unlock()
}

// StoreHeld holds the table-wide lock across a method of the table that
// locks a shard.
func (rt *Router) StoreHeld(path string, h any) {
	rt.routes.Mu.RLock() // want `rt.routes.Mu is held above the shard lock rt.routes.shards\[i\].Mu \(taken at registry.go:77\): one lock serialises the shards again`
	defer rt.routes.Mu.RUnlock()
	rt.routes.Store(path, h)
}

// Store is its twin.
func (rt *Router) Store(path string, h any) {
	rt.routes.Store(path, h)
}
