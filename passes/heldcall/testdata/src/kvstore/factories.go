package kvstore

import (
	"sync"

	"kvstore/internal/evict"
)

// A sharded cache whose shards build their eviction policy through a
// factory. The factory's type names the module's internal evict.Policy:
// no caller outside the module can write one, so calling it under the
// lock is the module's own code (a note). A factory of a public type is a
// caller's callback (a warning).

// Shards builds each shard's policy with newPolicy.
type Shards struct {
	mu        sync.Mutex
	policies  map[int]evict.Policy
	newPolicy func() evict.Policy
}

// NewShards returns shards whose policies newPolicy builds.
func NewShards(newPolicy func() evict.Policy) *Shards {
	return &Shards{policies: map[int]evict.Policy{}, newPolicy: newPolicy}
}

// Policy returns shard i's policy, building it on first use.
func (s *Shards) Policy(i int) evict.Policy {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.policies[i]
	if !ok {
		p = s.newPolicy() // want `s.mu held across call of func value s.newPolicy \(locked at factories.go:\d+, released by defer\) \(plausible: the func value can be a parameter of NewShards whose type names evict.Policy, which only the module can supply\)`
		s.policies[i] = p
	}
	return p
}

// Loaders builds each shard's loader with newLoader, a func of public
// types that any caller can supply.
type Loaders struct {
	mu        sync.Mutex
	loaders   map[int]func(string) []byte
	newLoader func(shard int) func(string) []byte
}

// NewLoaders returns loaders that newLoader builds.
func NewLoaders(newLoader func(shard int) func(string) []byte) *Loaders {
	return &Loaders{loaders: map[int]func(string) []byte{}, newLoader: newLoader}
}

// Loader returns shard i's loader, building it on first use.
func (l *Loaders) Loader(i int) func(string) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, ok := l.loaders[i]
	if !ok {
		f = l.newLoader(i) // want `l.mu held across call of func value l.newLoader \(locked at factories.go:\d+, released by defer\)$`
		l.loaders[i] = f
	}
	return f
}
