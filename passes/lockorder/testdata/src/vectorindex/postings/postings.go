// want package:"2 lock-order edges"

// Package postings keeps the posting lists of a clustered vector index:
// splitting a list takes its stripe, then inserts the new centroids into
// the graph, which takes the graph's lock.
package postings

import (
	"vectorindex/graph"
	"vectorindex/stripes"
)

// Index holds the posting lists and the graph of their centroids.
type Index struct {
	postingLocks *stripes.Locks
	centroids    *graph.Graph
	postings     map[uint64][]float32
}

// New makes an index with a lock table of its own.
func New() *Index {
	return &Index{postingLocks: stripes.New(64), centroids: graph.New(), postings: map[uint64][]float32{}}
}

// Split inserts the two new centroids under the posting's stripe. The
// graph takes a stripe of its own table under its lock, never one of the
// index's: the stripes of the two tables are never one lock. A note at
// most.
func (x *Index) Split(id, left, right uint64) {
	x.postingLocks.Lock(id)
	defer x.postingLocks.Unlock(id)
	x.centroids.Insert(left, []uint64{right}) // want `x.centroids.mu locked through call of graph.\(\*Graph\).Insert while holding x.postingLocks.stripes\[i\] \(locked at postings.go:\d+\); package vectorindex/graph graph.go:\d+ takes \(\*stripes.Locks\).stripes\[\] while holding \(\*graph.Graph\).mu: lock-order inversion across packages \(plausible: the cycle is proven only between the lock classes \(\*vectorindex/stripes.Locks\).stripes\[\] and \(\*vectorindex/graph.Graph\).mu\)`
}

// Shared is an index whose postings are striped by the graph's own lock
// table.
type Shared struct {
	locks     *stripes.Locks
	centroids *graph.Graph
}

// NewShared stripes the postings by the graph's table.
func NewShared(g *graph.Graph) *Shared { return &Shared{locks: g.NodeLocks(), centroids: g} }

// Split is its twin: it holds a stripe of the graph's table while the
// graph's Insert, holding the graph's lock, waits for that stripe.
func (s *Shared) Split(id, left, right uint64) {
	s.locks.Lock(id)
	defer s.locks.Unlock(id)
	s.centroids.Insert(left, []uint64{right}) // want `s.centroids.mu locked through call of graph.\(\*Graph\).Insert while holding s.locks.stripes\[i\] \(locked at postings.go:\d+\); package vectorindex/graph graph.go:\d+ takes \(\*stripes.Locks\).stripes\[\] while holding \(\*graph.Graph\).mu: lock-order inversion across packages`
}
