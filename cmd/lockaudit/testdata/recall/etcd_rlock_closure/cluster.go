// Package etcd_rlock_closure is modelled on an etcd membership
// (RaftCluster) deadlock with a recursive read lock reached through a
// closure: VotingMemberIDs read-locks the cluster and filters the members
// with a closure that calls IsLearner, which read-locks the cluster again.
// AddMember, applied from the raft loop, takes the write lock; queued
// between the two read locks it deadlocks the apply loop and every client
// request that lists members.
package etcd_rlock_closure

import (
	"sort"
	"sync"
)

// Member is a cluster member.
type Member struct {
	ID        uint64
	Name      string
	IsLearner bool
}

// RaftCluster is the cluster membership. Buggy version.
type RaftCluster struct {
	mu      sync.RWMutex
	members map[uint64]*Member
}

// NewRaftCluster returns an empty cluster.
func NewRaftCluster() *RaftCluster { return &RaftCluster{members: map[uint64]*Member{}} }

// AddMember adds m.
func (c *RaftCluster) AddMember(m *Member) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.members[m.ID] = m
}

// IsLearner reports whether id is a learner.
func (c *RaftCluster) IsLearner(id uint64) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, ok := c.members[id]
	return ok && m.IsLearner
}

func (c *RaftCluster) filterIDs(keep func(id uint64) bool) []uint64 {
	var ids []uint64
	for id := range c.members {
		if keep(id) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// VotingMemberIDs returns the IDs of the voting members, sorted.
func (c *RaftCluster) VotingMemberIDs() []uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.filterIDs(func(id uint64) bool {
		return !c.IsLearner(id) // BUG: read-locks c.mu again
	})
}

// RaftClusterFixed is the fixed version: the closure reads the member
// map directly under the caller's read lock.
type RaftClusterFixed struct {
	mu      sync.RWMutex
	members map[uint64]*Member
}

// NewRaftClusterFixed returns an empty cluster.
func NewRaftClusterFixed() *RaftClusterFixed {
	return &RaftClusterFixed{members: map[uint64]*Member{}}
}

// AddMember adds m.
func (c *RaftClusterFixed) AddMember(m *Member) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.members[m.ID] = m
}

// IsLearner reports whether id is a learner.
func (c *RaftClusterFixed) IsLearner(id uint64) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, ok := c.members[id]
	return ok && m.IsLearner
}

func (c *RaftClusterFixed) filterIDs(keep func(id uint64) bool) []uint64 {
	var ids []uint64
	for id := range c.members {
		if keep(id) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// VotingMemberIDs returns the IDs of the voting members, sorted.
func (c *RaftClusterFixed) VotingMemberIDs() []uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.filterIDs(func(id uint64) bool {
		m := c.members[id]
		return m != nil && !m.IsLearner
	})
}
