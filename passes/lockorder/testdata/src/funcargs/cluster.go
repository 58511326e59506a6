// want package:"5 lock-order edges"

package funcargs

import (
	"sort"
	"sync"
)

// Member is a cluster member.
type Member struct {
	ID      uint64
	Learner bool
}

// Cluster is a cluster's membership, applied by the raft loop and read by
// every request.
type Cluster struct {
	mu      sync.RWMutex
	members map[uint64]*Member
}

// Add is applied by the raft loop.
func (c *Cluster) Add(m *Member) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.members[m.ID] = m
}

// IsLearner read-locks the membership.
func (c *Cluster) IsLearner(id uint64) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, ok := c.members[id]
	return ok && m.Learner
}

func (c *Cluster) isVoter(id uint64) bool { return !c.IsLearner(id) }

// filter returns the sorted IDs of the members keep accepts; the caller
// holds c.mu.
func (c *Cluster) filter(keep func(id uint64) bool) []uint64 {
	var ids []uint64
	for id := range c.members {
		if keep(id) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// VotersHeld read-locks the membership and filters it with a closure
// that read-locks it again: an Add queued between the two read locks
// deadlocks the raft loop and the request.
func (c *Cluster) VotersHeld() []uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.filter(func(id uint64) bool { return !c.IsLearner(id) }) // want `c.mu read-locked again through call of \(\*Cluster\).filter while held \(locked at cluster.go:57\)`
}

// VotersByMethodHeld does the same with a method value.
func (c *Cluster) VotersByMethodHeld() []uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.filter(c.isVoter) // want `c.mu read-locked again through call of \(\*Cluster\).filter while held \(locked at cluster.go:64\)`
}

// Voters is their twin: the closure reads the map under the caller's
// read lock.
func (c *Cluster) Voters() []uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.filter(func(id uint64) bool {
		m := c.members[id]
		return m != nil && !m.Learner
	})
}
