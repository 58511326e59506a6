package ifaces

import (
	"context"
	"sync"
)

// Plugin is an extension loaded into the server at start-up.
type Plugin interface {
	Init(ctx context.Context) error
	Name() string
}

// pluginsMu guards the package's plugin registry.
var (
	pluginsMu sync.RWMutex
	plugins   = map[string]Plugin{}
)

// RegisterHeld initialises the plugin with the registry locked: a plugin
// whose Init looks up another plugin deadlocks, a slow one stalls lookups.
func RegisterHeld(ctx context.Context, p Plugin) error {
	pluginsMu.Lock()
	defer pluginsMu.Unlock()
	if err := p.Init(ctx); err != nil { // want `pluginsMu held across call of interface method Plugin.Init \(locked at plugins.go:23, released by defer\) \(plausible: Plugin can be implemented outside this module\)`
		return err
	}
	plugins[p.Name()] = p
	return nil
}

// Register initialises first and registers under the lock.
func Register(ctx context.Context, p Plugin) error {
	if err := p.Init(ctx); err != nil {
		return err
	}
	pluginsMu.Lock()
	plugins[p.Name()] = p
	pluginsMu.Unlock()
	return nil
}

// LookupPlugin only reads the map under the read lock.
func LookupPlugin(name string) (Plugin, bool) {
	pluginsMu.RLock()
	defer pluginsMu.RUnlock()
	p, ok := plugins[name]
	return p, ok
}
