// Package registry exports a lock and methods that take it.
package registry

import "sync"

// Registry embeds its mutex so that callers can batch operations.
type Registry struct {
	sync.Mutex
	services map[string]string
}

// Lookup locks the registry.
func (r *Registry) Lookup(name string) string {
	r.Lock()
	defer r.Unlock()
	return r.services[name]
}

// LookupLocked is for callers holding the lock.
func (r *Registry) LookupLocked(name string) string { return r.services[name] }

var configMu sync.Mutex
var config = map[string]string{}

// Reload takes the package's config lock.
func Reload(kv map[string]string) {
	configMu.Lock()
	defer configMu.Unlock()
	for k, v := range kv {
		config[k] = v
	}
}

// ApplyHeld holds configMu and calls Reload, which takes it again.
func ApplyHeld(kv map[string]string) {
	configMu.Lock()
	defer configMu.Unlock()
	if len(kv) > 0 {
		Reload(kv) // want `configMu locked again through call of Reload while held \(locked at registry.go:36\)`
	}
}

// Apply is its twin.
func Apply(kv map[string]string) {
	if len(kv) > 0 {
		Reload(kv)
	}
}
