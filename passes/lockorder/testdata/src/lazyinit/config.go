// Package lazyinit holds lazily initialised configs, registries and
// trees whose sync.Once functions call back into Do, next to the fixed
// versions that read what they need without going through Do again.
package lazyinit

import (
	"strings"
	"sync"
)

// Config loads its values on first use, expanding "@key" includes.
type Config struct {
	once sync.Once
	raw  map[string]string
	vals map[string]string
}

// Get returns the value of key, loading the config on first use.
func (c *Config) Get(key string) string {
	c.once.Do(c.load) // want `c.once.Do called again by \(\*Config\).load, which it runs: the inner Do waits for the outer one for ever`
	return c.vals[key]
}

// load expands an include through Get, which calls Do again: the first
// Get of a config with an include never returns.
func (c *Config) load() {
	c.vals = map[string]string{}
	for k, v := range c.raw {
		if inc, ok := strings.CutPrefix(v, "@"); ok {
			v = c.Get(inc)
		}
		c.vals[k] = v
	}
}

// FixedConfig expands includes from the raw values.
type FixedConfig struct {
	once sync.Once
	raw  map[string]string
	vals map[string]string
}

// Get returns the value of key, loading the config on first use.
func (c *FixedConfig) Get(key string) string {
	c.once.Do(c.load)
	return c.vals[key]
}

func (c *FixedConfig) load() {
	c.vals = map[string]string{}
	for k, v := range c.raw {
		if inc, ok := strings.CutPrefix(v, "@"); ok {
			v = c.raw[inc]
		}
		c.vals[k] = v
	}
}

// eagerLoad is off: Warm's Do, behind it, never runs, and its re-entry
// through load is not reported (Get's is).
const eagerLoad = false

// Warm loads the config ahead of its first Get when eagerLoad is on.
func (c *Config) Warm() {
	if eagerLoad {
		c.once.Do(c.load)
	}
}
