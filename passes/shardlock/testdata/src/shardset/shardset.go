// Package shardset is a fixed set of keyed shards for other packages to
// build on: a shard selector on the set itself, and a table that owns its
// shards and exports the table-wide lock its callers take to resize. The
// findings are in package registry, which uses it.
package shardset

import (
	"hash/maphash"
	"sync"
)

var seed = maphash.MakeSeed()

// Shard is one slice of the key space, with its own lock.
type Shard struct {
	Mu    sync.Mutex
	Items map[string]any
}

// Set is a fixed partition: New builds it once.
type Set []*Shard

func New(n int) Set { // want New:"shardlock\\(returns a new slice\\)"
	s := make(Set, n)
	for i := range s {
		s[i] = &Shard{Items: map[string]any{}}
	}
	return s
}

// For picks the key's shard.
func (s Set) For(key string) *Shard { // want For:"shardlock\\(selects an element of its receiver\\)"
	return s[maphash.String(seed, key)%uint64(len(s))]
}

// Table owns its shards; Mu is taken by callers that resize it.
type Table struct {
	Mu     sync.RWMutex
	shards []*Shard // want shards:"shardlock\\(fixed partition\\)"
}

func NewTable(n int) *Table {
	t := &Table{shards: make([]*Shard, n)}
	for i := range t.shards {
		t.shards[i] = &Shard{Items: map[string]any{}}
	}
	return t
}

// Shard picks the key's shard.
func (t *Table) Shard(key string) *Shard { // want Shard:"shardlock\\(selects an element of \\(\\*shardset.Table\\).shards\\)"
	return t.shards[maphash.String(seed, key)%uint64(len(t.shards))]
}

// Store locks the key's shard.
func (t *Table) Store(key string, v any) {
	i := maphash.String(seed, key) % uint64(len(t.shards))
	t.shards[i].Mu.Lock()
	t.shards[i].Items[key] = v
	t.shards[i].Mu.Unlock()
}
