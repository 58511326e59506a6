// Package sessions is a session store sharded over a slice of shard
// pointers built once: the store-wide lock put back above the shards (by a
// selector, by direct indexing, and around a loop over every shard), each
// next to its correct twin.
package sessions

import (
	"hash/fnv"
	"sync"
	"time"
)

type Session struct {
	ID      string
	User    string
	Expires time.Time
}

type shard struct {
	mu       sync.RWMutex
	sessions map[string]*Session
}

// Store keeps its sessions in a fixed set of shards; mu guards closed.
type Store struct {
	mu     sync.RWMutex
	shards []*shard // want shards:"shardlock\\(fixed partition\\)"
	closed bool
}

func New(n int) *Store {
	s := &Store{shards: make([]*shard, n)}
	for i := range s.shards {
		s.shards[i] = &shard{sessions: map[string]*Session{}}
	}
	return s
}

func hash(id string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()
}

func (s *Store) shardFor(id string) *shard {
	return s.shards[hash(id)%uint32(len(s.shards))]
}

// GetHeld keeps the store-wide lock while the session's shard is read.
func (s *Store) GetHeld(id string) *Session {
	s.mu.RLock() // want `s.mu is held above the shard lock sh.mu \(taken at sessions.go:57\): one lock serialises the shards again`
	defer s.mu.RUnlock()
	if s.closed {
		return nil
	}
	sh := s.shardFor(id)
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	return sh.sessions[id]
}

// Get is its twin: the closed flag is copied and the store-wide lock
// released before the shard's lock is taken.
func (s *Store) Get(id string) *Session {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return nil
	}
	sh := s.shardFor(id)
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	return sh.sessions[id]
}

// PutHeld indexes the slice of shard pointers directly.
func (s *Store) PutHeld(sess *Session) {
	s.mu.Lock() // want `s.mu is held above the shard lock sh.mu \(taken at sessions.go:82\): one lock serialises the shards again`
	defer s.mu.Unlock()
	sh := s.shards[hash(sess.ID)%uint32(len(s.shards))]
	sh.mu.Lock()
	sh.sessions[sess.ID] = sess
	sh.mu.Unlock()
}

// Put is its twin.
func (s *Store) Put(sess *Session) {
	sh := s.shards[hash(sess.ID)%uint32(len(s.shards))]
	sh.mu.Lock()
	sh.sessions[sess.ID] = sess
	sh.mu.Unlock()
}

// LenHeld counts the sessions under the store-wide lock: every Get and Put
// waits for a walk over all the shards.
func (s *Store) LenHeld() int {
	s.mu.RLock() // want `s.mu is held above the shard lock sh.mu \(taken at sessions.go:102, in a loop over every shard\): one lock serialises the shards again`
	defer s.mu.RUnlock()
	n := 0
	for _, sh := range s.shards {
		sh.mu.RLock()
		n += len(sh.sessions)
		sh.mu.RUnlock()
	}
	return n
}

// Len is its twin: each shard is counted under its own lock only.
func (s *Store) Len() int {
	n := 0
	for _, sh := range s.shards {
		sh.mu.RLock()
		n += len(sh.sessions)
		sh.mu.RUnlock()
	}
	return n
}

// ExpireHeld sweeps every shard under the store-wide write lock: the whole
// store stops for the sweep.
func (s *Store) ExpireHeld(now time.Time) {
	s.mu.Lock() // want `s.mu is held above the shard lock s.shards\[i\].mu \(taken at sessions.go:126, in a loop over every shard\): one lock serialises the shards again`
	defer s.mu.Unlock()
	for i := range s.shards {
		s.shards[i].mu.Lock()
		for id, sess := range s.shards[i].sessions {
			if sess.Expires.Before(now) {
				delete(s.shards[i].sessions, id)
			}
		}
		s.shards[i].mu.Unlock()
	}
}

// Expire is its twin: the store-wide lock only guards the closed flag.
func (s *Store) Expire(now time.Time) {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return
	}
	for i := range s.shards {
		s.shards[i].mu.Lock()
		for id, sess := range s.shards[i].sessions {
			if sess.Expires.Before(now) {
				delete(s.shards[i].sessions, id)
			}
		}
		s.shards[i].mu.Unlock()
	}
}

// Close marks the store closed. Not a finding: no shard is locked.
func (s *Store) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// FirstShardHeld locks shard 0 under the store-wide lock: a constant index
// picks no key's shard (a named slot, such as a default). Not a finding.
func (s *Store) FirstShardHeld() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.shards[0].mu.RLock()
	defer s.shards[0].mu.RUnlock()
	return len(s.shards[0].sessions)
}
