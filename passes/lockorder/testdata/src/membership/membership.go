// Package membership holds a cluster that asks its membership for the
// leader while holding its lock; the program's only membership calls back
// into the cluster, which takes that lock again.
package membership

import "sync"

// Members knows the cluster's members. Users may implement it; the
// program's implementation is staticMembers.
type Members interface {
	Leader() string
	Count() int
}

// Cluster replicates a log over its members.
type Cluster struct {
	mu      sync.RWMutex
	members Members
	term    int
	leader  string
}

// Do runs f with the cluster read-locked.
func (c *Cluster) Do(f func(term int)) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	f(c.term)
}

// SyncHeld asks for the leader while holding c.mu: the only Members calls
// c.Do, which read-locks c.mu again.
func (c *Cluster) SyncHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.leader = c.members.Leader() // want `c.mu read-locked through call of Leader, which the program implements with \(\*staticMembers\).Leader, while held \(locked at membership.go:33\) \(plausible: the implementation locks another instance of the class, or this one\)`
}

// Sync is its twin: it asks before locking.
func (c *Cluster) Sync() {
	leader := c.members.Leader()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.leader = leader
}

// Size asks for a count, which no implementation computes under c.mu.
func (c *Cluster) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.members.Count()
}

// staticMembers is a fixed membership that learns the leader's term from
// the cluster.
type staticMembers struct {
	c     *Cluster
	names []string
}

func (m *staticMembers) Leader() string {
	var leader string
	m.c.Do(func(term int) { leader = m.names[term%len(m.names)] })
	return leader
}

func (m *staticMembers) Count() int { return len(m.names) }

// Group is a Members made of other Members: it asks each of them under
// its own lock. The call is to another value (or it would recurse
// forever), so taking the group's lock class again is not a deadlock.
type Group struct {
	mu      sync.RWMutex
	members []Members
}

func (g *Group) Leader() string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for _, m := range g.members {
		if l := m.Leader(); l != "" {
			return l
		}
	}
	return ""
}

func (g *Group) Count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, m := range g.members {
		n += m.Count()
	}
	return n
}
