package lazyinit

import "sync"

// A Node computes its path once, from its parent's: the parent's Once is
// another Once of the same type, taken inside the child's, and a tree has
// no cycles.
type Node struct {
	once   sync.Once
	parent *Node
	name   string
	path   string
}

// Path returns the node's path from the root.
func (n *Node) Path() string {
	n.once.Do(func() {
		if n.parent == nil {
			n.path = "/" + n.name
			return
		}
		n.path = n.parent.Path() + "/" + n.name
	})
	return n.path
}

// Shards are lazily opened segments under one index lock: opening a
// segment under the index lock is no lock above shards.
type Shards struct {
	mu   sync.Mutex
	segs [16]segment
}

type segment struct {
	open sync.Once
	data []byte
}

// Segment opens segment i on first use.
func (s *Shards) Segment(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	seg := &s.segs[i%len(s.segs)]
	seg.open.Do(func() { seg.data = make([]byte, 0, 4096) })
	return seg.data
}
