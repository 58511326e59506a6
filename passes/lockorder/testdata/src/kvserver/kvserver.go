// want package:"1 lock-order edges"

// Package kvserver holds a store-wide heartbeat lock and each replica's
// raft lock. Sending heartbeats takes the store's lock, then each
// replica's, through a helper that ranges over the store's replicas. The
// reverse order is taken by package kvtick.
package kvserver

import "sync"

// Store owns the replicas.
type Store struct {
	hbMu     sync.Mutex
	replicas map[int64]*Replica
	beats    int
}

// Replica is one range's replica.
type Replica struct {
	raftMu      sync.Mutex
	Store       *Store
	unreachable bool
	Quiesced    bool
}

// SendHeartbeats holds the heartbeat lock and marks each replica.
func (s *Store) SendHeartbeats() {
	s.hbMu.Lock()
	defer s.hbMu.Unlock()
	for _, r := range s.replicas {
		r.reportUnreachable()
	}
}

func (r *Replica) reportUnreachable() {
	r.raftMu.Lock()
	defer r.raftMu.Unlock()
	r.unreachable = true
}

// Coalesce counts a heartbeat under the store's heartbeat lock.
func (s *Store) Coalesce() {
	s.hbMu.Lock()
	s.beats++
	s.hbMu.Unlock()
}

// LockRaft locks the replica's raft state.
func (r *Replica) LockRaft() { r.raftMu.Lock() }

// UnlockRaft unlocks it.
func (r *Replica) UnlockRaft() { r.raftMu.Unlock() }
