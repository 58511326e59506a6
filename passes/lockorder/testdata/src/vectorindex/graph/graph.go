// want package:"1 lock-order edges"

// Package graph is a proximity graph over vectors: an insert takes the
// graph's lock, then the node's stripe of the graph's own lock table.
package graph

import (
	"sync"

	"vectorindex/stripes"
)

// Graph links each node to its neighbours.
type Graph struct {
	mu        sync.RWMutex
	nodeLocks *stripes.Locks
	edges     map[uint64][]uint64
}

// New makes an empty graph with a lock table of its own.
func New() *Graph {
	return &Graph{nodeLocks: stripes.New(64), edges: map[uint64][]uint64{}}
}

// Insert links a node under the graph's lock and the node's stripe.
func (g *Graph) Insert(id uint64, neighbours []uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nodeLocks.Lock(id)
	g.edges[id] = neighbours
	g.nodeLocks.Unlock(id)
}

// NodeLocks hands out the graph's lock table.
func (g *Graph) NodeLocks() *stripes.Locks { return g.nodeLocks }
