// Models cockroach#3710 (GoKer cockroach_3710): ForceRaftLogScanAndProcess read-locks s.mu and, for each replica, calls baseQueue.MaybeAdd -> queueImpl.shouldQueue (interface) -> getTruncatableIndexes -> r.store.RaftStatus, which read-locks s.mu again; processRaft's writer deadlocks them (recursive RLock through another type, an interface and a back pointer).
package cockroach_raftlog_rlock

import (
	"sync"
	"time"
)

// Replica is one range replica.
type Replica struct {
	rangeID int
	store   *Store
}

// RaftStatus is a replica's raft progress.
type RaftStatus struct {
	Applied, Committed uint64
}

// queueImpl is the queue-specific policy.
type queueImpl interface {
	shouldQueue(now time.Time, r *Replica) (bool, float64)
}

// baseQueue is a priority queue of replicas.
type baseQueue struct {
	mu    sync.Mutex
	impl  queueImpl
	queue map[int]float64
}

// MaybeAdd queues r if the policy wants it.
func (bq *baseQueue) MaybeAdd(r *Replica, now time.Time) {
	bq.mu.Lock()
	defer bq.mu.Unlock()
	if should, prio := bq.impl.shouldQueue(now, r); should {
		bq.queue[r.rangeID] = prio
	}
}

type raftLogQueue struct{}

func (*raftLogQueue) shouldQueue(now time.Time, r *Replica) (bool, float64) {
	truncatable := getTruncatableIndexes(r)
	return truncatable > 100, float64(truncatable)
}

type gcQueue struct{}

func (*gcQueue) shouldQueue(now time.Time, r *Replica) (bool, float64) { return false, 0 }

func getTruncatableIndexes(r *Replica) uint64 {
	st := r.store.RaftStatus(r.rangeID)
	return st.Applied
}

// Store holds the node's replicas. Buggy version.
type Store struct {
	mu struct {
		sync.RWMutex
		replicas map[int]*Replica
		status   map[int]RaftStatus
	}
	raftLogQueue *baseQueue
	gcQueue      *baseQueue
}

// NewStore wires the queues.
func NewStore() *Store {
	s := &Store{
		raftLogQueue: &baseQueue{impl: &raftLogQueue{}, queue: map[int]float64{}},
		gcQueue:      &baseQueue{impl: &gcQueue{}, queue: map[int]float64{}},
	}
	s.mu.replicas = map[int]*Replica{}
	s.mu.status = map[int]RaftStatus{}
	return s
}

// RaftStatus returns a replica's raft status.
func (s *Store) RaftStatus(rangeID int) RaftStatus {
	s.mu.RLock() // BUG: already read-locked by ForceRaftLogScanAndProcess
	defer s.mu.RUnlock()
	return s.mu.status[rangeID]
}

// ForceRaftLogScanAndProcess queues every replica for log truncation.
func (s *Store) ForceRaftLogScanAndProcess() {
	s.mu.RLock()
	for _, r := range s.mu.replicas {
		s.raftLogQueue.MaybeAdd(r, time.Now()) // BUG: reaches RaftStatus with s.mu read-locked
	}
	s.mu.RUnlock()
}

func (s *Store) processRaft(id int, st RaftStatus) {
	s.mu.Lock()
	s.mu.status[id] = st
	s.mu.Unlock()
}

// StoreFixed is the fixed version: the replicas are copied under the lock
// and queued after it is released (as cockroach did).
type StoreFixed struct {
	mu struct {
		sync.RWMutex
		replicas map[int]*ReplicaFixed
		status   map[int]RaftStatus
	}
	raftLogQueue *baseQueueFixed
}

// ReplicaFixed is one range replica of a StoreFixed.
type ReplicaFixed struct {
	rangeID int
	store   *StoreFixed
}

type queueImplFixed interface {
	shouldQueue(now time.Time, r *ReplicaFixed) (bool, float64)
}

type baseQueueFixed struct {
	mu    sync.Mutex
	impl  queueImplFixed
	queue map[int]float64
}

func (bq *baseQueueFixed) MaybeAdd(r *ReplicaFixed, now time.Time) {
	bq.mu.Lock()
	defer bq.mu.Unlock()
	if should, prio := bq.impl.shouldQueue(now, r); should {
		bq.queue[r.rangeID] = prio
	}
}

type raftLogQueueFixed struct{}

func (*raftLogQueueFixed) shouldQueue(now time.Time, r *ReplicaFixed) (bool, float64) {
	truncatable := getTruncatableIndexesFixed(r)
	return truncatable > 100, float64(truncatable)
}

func getTruncatableIndexesFixed(r *ReplicaFixed) uint64 {
	st := r.store.RaftStatus(r.rangeID)
	return st.Applied
}

// NewStoreFixed wires the queue.
func NewStoreFixed() *StoreFixed {
	s := &StoreFixed{raftLogQueue: &baseQueueFixed{impl: &raftLogQueueFixed{}, queue: map[int]float64{}}}
	s.mu.replicas = map[int]*ReplicaFixed{}
	s.mu.status = map[int]RaftStatus{}
	return s
}

// RaftStatus returns a replica's raft status.
func (s *StoreFixed) RaftStatus(rangeID int) RaftStatus {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mu.status[rangeID]
}

// ForceRaftLogScanAndProcess queues every replica for log truncation.
func (s *StoreFixed) ForceRaftLogScanAndProcess() {
	s.mu.RLock()
	replicas := make([]*ReplicaFixed, 0, len(s.mu.replicas))
	for _, r := range s.mu.replicas {
		replicas = append(replicas, r)
	}
	s.mu.RUnlock()
	for _, r := range replicas {
		s.raftLogQueue.MaybeAdd(r, time.Now())
	}
}

func (s *StoreFixed) processRaft(id int, st RaftStatus) {
	s.mu.Lock()
	s.mu.status[id] = st
	s.mu.Unlock()
}
