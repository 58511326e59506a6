// Package cockroach_leak_continue is modelled on a CockroachDB replica
// GC queue bug: the scan loop locks each replica to check whether it is
// due for GC and `continue`s past a replica already destroyed without
// unlocking it. The replica's mutex stays locked, and the next raft
// tick or request on that replica blocks forever.
package cockroach_leak_continue

import "sync"

// Replica is one range's replica. Buggy version's type.
type Replica struct {
	mu          sync.Mutex
	rangeID     int64
	destroyed   bool
	lastActive  int64
	gcThreshold int64
}

// Tick records activity on the replica.
func (r *Replica) Tick(now int64) {
	r.mu.Lock()
	r.lastActive = now
	r.mu.Unlock()
}

// Destroy marks the replica destroyed (its range was merged away).
func (r *Replica) Destroy() {
	r.mu.Lock()
	r.destroyed = true
	r.mu.Unlock()
}

// GCQueue finds inactive replicas. Buggy version.
type GCQueue struct {
	replicas []*Replica
}

// NewGCQueue scans replicas.
func NewGCQueue(replicas []*Replica) *GCQueue { return &GCQueue{replicas: replicas} }

// Scan returns the range IDs of the replicas due for GC.
func (q *GCQueue) Scan(now, ttl int64) []int64 {
	var due []int64
	for _, r := range q.replicas {
		r.mu.Lock()
		if r.destroyed {
			continue // BUG: r.mu stays locked
		}
		if now-r.lastActive > ttl {
			r.gcThreshold = now
			due = append(due, r.rangeID)
		}
		r.mu.Unlock()
	}
	return due
}

// ReplicaFixed is the fixed version's type.
type ReplicaFixed struct {
	mu          sync.Mutex
	rangeID     int64
	destroyed   bool
	lastActive  int64
	gcThreshold int64
}

// Tick records activity on the replica.
func (r *ReplicaFixed) Tick(now int64) {
	r.mu.Lock()
	r.lastActive = now
	r.mu.Unlock()
}

// Destroy marks the replica destroyed (its range was merged away).
func (r *ReplicaFixed) Destroy() {
	r.mu.Lock()
	r.destroyed = true
	r.mu.Unlock()
}

// GCQueueFixed is the fixed version: the skip unlocks first.
type GCQueueFixed struct {
	replicas []*ReplicaFixed
}

// NewGCQueueFixed scans replicas.
func NewGCQueueFixed(replicas []*ReplicaFixed) *GCQueueFixed {
	return &GCQueueFixed{replicas: replicas}
}

// Scan returns the range IDs of the replicas due for GC.
func (q *GCQueueFixed) Scan(now, ttl int64) []int64 {
	var due []int64
	for _, r := range q.replicas {
		r.mu.Lock()
		if r.destroyed {
			r.mu.Unlock()
			continue
		}
		if now-r.lastActive > ttl {
			r.gcThreshold = now
			due = append(due, r.rangeID)
		}
		r.mu.Unlock()
	}
	return due
}
