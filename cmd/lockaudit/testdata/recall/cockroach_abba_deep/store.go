// Package cockroach_abba_deep is modelled on a CockroachDB store / replica
// lock-order inversion, each half two helper calls deep: the store's raft
// tick holds the store mutex and ticks every replica, which takes the
// replica's mutex; destroying a replica holds the replica's mutex and
// unlinks it from its store, which takes the store mutex. A GC of a
// replica racing the tick loop deadlocks the store.
package cockroach_abba_deep

import "sync"

// Replica is one range's replica. Buggy version.
type Replica struct {
	mu        sync.Mutex
	rangeID   int64
	ticks     int
	destroyed bool
	store     *Store
}

// Store owns the replicas on a node. Buggy version.
type Store struct {
	mu       sync.Mutex
	replicas map[int64]*Replica
	ticks    int
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{replicas: map[int64]*Replica{}} }

// AddReplica creates the replica of rangeID.
func (s *Store) AddReplica(rangeID int64) *Replica {
	r := &Replica{rangeID: rangeID, store: s}
	s.mu.Lock()
	s.replicas[rangeID] = r
	s.mu.Unlock()
	return r
}

// Tick advances every replica's raft clock.
func (s *Store) Tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ticks++
	for _, r := range s.replicas {
		s.tickReplica(r)
	}
}

func (s *Store) tickReplica(r *Replica) {
	r.tick()
}

func (r *Replica) tick() {
	r.mu.Lock() // store.mu (Tick) then replica.mu
	if !r.destroyed {
		r.ticks++
	}
	r.mu.Unlock()
}

// Destroy removes the replica from its store.
func (r *Replica) Destroy() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.destroyed = true
	r.unlink() // BUG: replica.mu then store.mu
}

func (r *Replica) unlink() {
	r.store.removeReplica(r.rangeID)
}

func (s *Store) removeReplica(rangeID int64) {
	s.mu.Lock()
	delete(s.replicas, rangeID)
	s.mu.Unlock()
}

// ReplicaFixed is the fixed version's replica: Destroy marks it destroyed
// under its own mutex and unlinks it from the store after releasing it.
type ReplicaFixed struct {
	mu        sync.Mutex
	rangeID   int64
	ticks     int
	destroyed bool
	store     *StoreFixed
}

// StoreFixed is the fixed version's store.
type StoreFixed struct {
	mu       sync.Mutex
	replicas map[int64]*ReplicaFixed
	ticks    int
}

// NewStoreFixed returns an empty store.
func NewStoreFixed() *StoreFixed { return &StoreFixed{replicas: map[int64]*ReplicaFixed{}} }

// AddReplica creates the replica of rangeID.
func (s *StoreFixed) AddReplica(rangeID int64) *ReplicaFixed {
	r := &ReplicaFixed{rangeID: rangeID, store: s}
	s.mu.Lock()
	s.replicas[rangeID] = r
	s.mu.Unlock()
	return r
}

// Tick advances every replica's raft clock.
func (s *StoreFixed) Tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ticks++
	for _, r := range s.replicas {
		s.tickReplica(r)
	}
}

func (s *StoreFixed) tickReplica(r *ReplicaFixed) {
	r.tick()
}

func (r *ReplicaFixed) tick() {
	r.mu.Lock()
	if !r.destroyed {
		r.ticks++
	}
	r.mu.Unlock()
}

// Destroy removes the replica from its store.
func (r *ReplicaFixed) Destroy() {
	r.mu.Lock()
	r.destroyed = true
	r.mu.Unlock()
	r.unlink()
}

func (r *ReplicaFixed) unlink() {
	r.store.removeReplica(r.rangeID)
}

func (s *StoreFixed) removeReplica(rangeID int64) {
	s.mu.Lock()
	delete(s.replicas, rangeID)
	s.mu.Unlock()
}
