package callbacks

import (
	"strconv"
	"sync"
)

// Namespace is a tenant's settings, as a namespace registry keeps them.
type Namespace struct {
	Name    string
	Retain  int
	Version int64
}

// NamespaceRegistry refreshes namespaces and tells its owner about the
// ones that changed.
type NamespaceRegistry struct {
	mu       sync.Mutex
	byName   map[string]*Namespace
	changed  func(old, new *Namespace) bool
	onChange func(old, new *Namespace)
}

// NewNamespaceRegistry takes the user's comparator and change hook.
func NewNamespaceRegistry(changed func(old, new *Namespace) bool, onChange func(old, new *Namespace)) *NamespaceRegistry {
	return &NamespaceRegistry{byName: map[string]*Namespace{}, changed: changed, onChange: onChange}
}

// Update compares the old and the new namespace under the lock: a
// comparator is pure by contract, a plausible callback.
func (r *NamespaceRegistry) Update(ns *Namespace) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.byName[ns.Name]
	r.byName[ns.Name] = ns
	return old == nil || r.changed(old, ns) // want `r.mu held across call of func value r.changed \(locked at converters.go:\d+, released by defer\) \(plausible: a func value of type func\(old \*callbacks.Namespace, new \*callbacks.Namespace\) bool compares two values\)`
}

// Notify runs the user's change hook under the lock: its twin, proven.
func (r *NamespaceRegistry) Notify(ns *Namespace) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.byName[ns.Name]
	r.byName[ns.Name] = ns
	r.onChange(old, ns) // want `r.mu held across call of func value r.onChange \(locked at converters.go:\d+, released by defer\)`
}

// Setting is a dynamic setting's current raw value.
type Setting struct {
	mu  sync.Mutex
	raw string
}

// Value converts the raw value with the caller's converter under the lock:
// a conversion is a pure function of its input. Not a finding.
func (s *Setting) Value(convert func(raw string) (int, error)) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return convert(s.raw)
}

// Refresh is its twin that reloads the value with the caller's loader
// under the lock: a loader reads a file or asks a server.
func (s *Setting) Refresh(load func(key string) (string, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, err := load("retention") // want `s.mu held across call of func value load \(locked at converters.go:\d+, released by defer\)`
	if err != nil {
		return err
	}
	if _, err := strconv.Atoi(raw); err != nil {
		return err
	}
	s.raw = raw
	return nil
}

// Clustered compares a namespace's two versions for one cluster under the
// lock: a comparator with a plain argument beside the pair, a note.
func (r *NamespaceRegistry) Clustered(cluster string, ns *Namespace, significant func(cluster string, old, new *Namespace) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.byName[ns.Name]
	r.byName[ns.Name] = ns
	return old != nil && significant(cluster, old, ns) // want `r.mu held across call of func value significant \(locked at converters.go:\d+, released by defer\) \(plausible: a func value of type func\(cluster string, old \*callbacks.Namespace, new \*callbacks.Namespace\) bool compares two values\)`
}

// EntryStore keeps entries by key.
type EntryStore struct {
	mu    sync.Mutex
	items map[any]any
}

// RemoveIf is its twin: a filter handed a key and a value, both of type
// any, is the user's code over an entry, not a comparator. Proven.
func (s *EntryStore) RemoveIf(key any, keep func(key, value any) bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.items[key]
	if !ok || keep(key, v) { // want `s.mu held across call of func value keep \(locked at converters.go:\d+, released by defer\)`
		return false
	}
	delete(s.items, key)
	return true
}
