package lazyinit

import "sync"

// A Codec encodes values.
type Codec interface {
	Encode(v any) ([]byte, error)
}

func builtinCodecs() map[string]Codec { return map[string]Codec{} }

// Registry holds the codecs, built on first use, and a fallback.
type Registry struct {
	once     sync.Once
	mu       sync.Mutex
	codecs   map[string]Codec
	fallback Codec
}

func (r *Registry) init() {
	r.once.Do(func() { // want `r.once.Do called again by its func literal, which it runs`
		r.codecs = builtinCodecs()
		r.fallback = r.Lookup("json") // Lookup calls init again
	})
}

// Lookup returns the codec called name.
func (r *Registry) Lookup(name string) Codec {
	r.init()
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.codecs[name]; ok {
		return c
	}
	return r.fallback
}

// FixedRegistry picks its fallback from the map it has just built.
type FixedRegistry struct {
	once     sync.Once
	mu       sync.Mutex
	codecs   map[string]Codec
	fallback Codec
}

func (r *FixedRegistry) init() {
	r.once.Do(func() {
		r.codecs = builtinCodecs()
		r.fallback = r.codecs["json"]
	})
}

// Lookup returns the codec called name.
func (r *FixedRegistry) Lookup(name string) Codec {
	r.init()
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.codecs[name]; ok {
		return c
	}
	return r.fallback
}
