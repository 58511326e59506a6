package regressions

import (
	"hash/fnv"
	"sync"
)

// From a sharded session store: a lock reached through a local variable
// that holds a call's result is named as written (sh.mu), not "call.mu".

type sessionShard struct {
	mu       sync.Mutex
	sessions map[string][]byte
}

// ShardedSessions spreads sessions over shards by key hash.
type ShardedSessions struct {
	shards  []*sessionShard
	onWrite func(id string, data []byte)
}

func (s *ShardedSessions) shardFor(id string) *sessionShard {
	h := fnv.New32a()
	h.Write([]byte(id))
	return s.shards[h.Sum32()%uint32(len(s.shards))]
}

func (s *ShardedSessions) PutHeld(id string, data []byte) {
	sh := s.shardFor(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.sessions[id] = data
	s.onWrite(id, data) // want `sh.mu held across call of func value s.onWrite \(locked at lockname_call.go:30, released by defer\) \(plausible: the func value can be field onWrite, which the package never sets\)`
}

func (s *ShardedSessions) Put(id string, data []byte) {
	sh := s.shardFor(id)
	sh.mu.Lock()
	sh.sessions[id] = data
	sh.mu.Unlock()
	s.onWrite(id, data)
}
