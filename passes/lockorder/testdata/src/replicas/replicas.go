// want package:"2 lock-order edges"

// Package replicas holds a store-wide heartbeat lock and each replica's raft
// lock, taken in both orders: the store's lock, then each replica's through
// a helper that ranges over the store's replicas; and a replica's lock, then
// its store's, three calls deep from the replica's tick.
package replicas

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
	store       *Store
	unreachable bool
	quiesced    bool
}

// sendHeartbeats holds the store's heartbeat lock and locks each replica.
func (s *Store) sendHeartbeats() {
	s.hbMu.Lock()
	defer s.hbMu.Unlock()
	for _, r := range s.replicas {
		r.reportUnreachable() // want `r.raftMu locked through call of \(\*Replica\).reportUnreachable while holding s.hbMu \(locked at replicas.go:28\); the opposite order is taken at replicas.go:46: lock-order inversion`
	}
}

// reportUnreachable marks the replica under its raft lock.
func (r *Replica) reportUnreachable() {
	r.raftMu.Lock()
	defer r.raftMu.Unlock()
	r.unreachable = true
}

// tick holds the replica's raft lock and may quiesce it.
func (r *Replica) tick() {
	r.raftMu.Lock()
	defer r.raftMu.Unlock()
	r.maybeQuiesce() // want `r.store.hbMu locked through call of \(\*Replica\).maybeQuiesce while holding r.raftMu \(locked at replicas.go:44\); the opposite order is taken at replicas.go:31: lock-order inversion`
}

// maybeQuiesce coalesces the replica's heartbeats.
func (r *Replica) maybeQuiesce() {
	r.quiesced = true
	r.coalesce()
}

// coalesce counts a heartbeat under the store's heartbeat lock.
func (r *Replica) coalesce() {
	r.store.hbMu.Lock()
	r.store.beats++
	r.store.hbMu.Unlock()
}

// sendHeartbeatsUnlocked is the twin of sendHeartbeats: it copies the
// replicas under the heartbeat lock and reports them after releasing it.
func (s *Store) sendHeartbeatsUnlocked() {
	s.hbMu.Lock()
	rs := make([]*Replica, 0, len(s.replicas))
	for _, r := range s.replicas {
		rs = append(rs, r)
	}
	s.beats++
	s.hbMu.Unlock()
	for _, r := range rs {
		r.reportUnreachable()
	}
}

// tickUnlocked is the twin of tick: it decides under the raft lock and
// quiesces after releasing it.
func (r *Replica) tickUnlocked() {
	r.raftMu.Lock()
	quiesce := !r.quiesced
	r.raftMu.Unlock()
	if quiesce {
		r.maybeQuiesce()
	}
}
