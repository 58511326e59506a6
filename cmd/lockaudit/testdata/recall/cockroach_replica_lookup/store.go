// Package cockroach_replica_lookup is modelled on cockroach#10214: the
// store's lock is held while a replica found through the store's lookup
// helper is locked, and a replica holding its own lock takes the store's
// lock through its back-pointer to update the store's statistics. The two
// orders meet on the same store and replica.
package cockroach_replica_lookup

import "sync"

// Store owns its replicas. Buggy version.
type Store struct {
	mu       sync.Mutex
	replicas map[int]*Replica
	qps      float64
}

// Replica is one range's replica.
type Replica struct {
	mu    sync.Mutex
	id    int
	qps   float64
	store *Store
}

// getReplica returns the replica with id, or nil.
func (s *Store) getReplica(id int) *Replica {
	r, ok := s.replicas[id]
	if !ok {
		return nil
	}
	return r
}

// ResetStats clears a replica's statistics under the store's lock.
func (s *Store) ResetStats(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.getReplica(id); r != nil {
		r.mu.Lock()
		r.qps = 0
		r.mu.Unlock()
	}
}

// Record counts a request under the replica's lock and adds it to the
// store's total under the store's lock.
func (r *Replica) Record(qps float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.qps += qps
	r.store.mu.Lock()
	r.store.qps += qps
	r.store.mu.Unlock()
}

// StoreFixed is the fixed version: the replica is looked up under the
// store's lock and reset after it is released.
type StoreFixed struct {
	mu       sync.Mutex
	replicas map[int]*ReplicaFixed
	qps      float64
}

// ReplicaFixed is the fixed version's replica.
type ReplicaFixed struct {
	mu    sync.Mutex
	id    int
	qps   float64
	store *StoreFixed
}

func (s *StoreFixed) getReplica(id int) *ReplicaFixed {
	r, ok := s.replicas[id]
	if !ok {
		return nil
	}
	return r
}

// ResetStats finds the replica under the store's lock, then resets it.
func (s *StoreFixed) ResetStats(id int) {
	s.mu.Lock()
	r := s.getReplica(id)
	s.mu.Unlock()
	if r != nil {
		r.mu.Lock()
		r.qps = 0
		r.mu.Unlock()
	}
}

// Record is unchanged.
func (r *ReplicaFixed) Record(qps float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.qps += qps
	r.store.mu.Lock()
	r.store.qps += qps
	r.store.mu.Unlock()
}
