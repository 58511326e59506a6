package leaks

import "sync"

// Lock coupling (hand-over-hand locking): a traversal locks the next node
// before it unlocks the one it is on, then moves to it, so that no writer
// can unlink a node under its feet. The variable naming the current node
// is a φ of the loop; the lock taken before the loop and the one taken in
// the body are both its lock once the loop moves on.

// A session index keeps its entries in a sorted list with a lock per node.
type sessionNode struct {
	mu   sync.Mutex
	id   uint64
	next *sessionNode
}

type SessionIndex struct{ head sessionNode }

// Insert walks the list hand over hand and links the new session after the
// last smaller id.
func (x *SessionIndex) Insert(id uint64) bool {
	prev := &x.head
	prev.mu.Lock()
	for prev.next != nil && prev.next.id < id {
		next := prev.next
		next.mu.Lock()
		prev.mu.Unlock()
		prev = next
	}
	if prev.next != nil && prev.next.id == id {
		prev.mu.Unlock()
		return false
	}
	prev.next = &sessionNode{id: id, next: prev.next}
	prev.mu.Unlock()
	return true
}

// InsertUnique is Insert with the unlock forgotten on the duplicate path:
// the node the walk stopped at stays locked, and the next walk past it
// waits forever.
func (x *SessionIndex) InsertUnique(id uint64) bool {
	prev := &x.head
	prev.mu.Lock()
	for prev.next != nil && prev.next.id < id {
		next := prev.next
		next.mu.Lock()
		prev.mu.Unlock()
		prev = next
	}
	if prev.next != nil && prev.next.id == id {
		return false // want `return with prev.mu held, but other paths of InsertUnique release it \(locked at coupling.go:\d+\): the next Lock of it waits forever`
	}
	prev.next = &sessionNode{id: id, next: prev.next}
	prev.mu.Unlock()
	return true
}

// A route table is a radix tree whose interior nodes are deleted, up the
// tree, once empty. Each deletion needs the parent's lock, taken before
// the child's is let go.
type routeNode struct {
	mu       sync.Mutex
	parent   *routeNode
	dead     bool
	children [4]*routeNode
	leaf     bool
}

func (n *routeNode) empty() bool {
	for _, c := range n.children {
		if c != nil {
			return false
		}
	}
	return true
}

type RouteTable struct{ root *routeNode }

// Withdraw finds the route for hash, locks the node holding it, removes it
// and prunes the emptied nodes up the tree; it starts over when another
// withdrawal got there first.
func (t *RouteTable) Withdraw(hash uint) {
	var n *routeNode
	for {
		n = t.root
		shift := uint(8)
		found := false
		for shift != 0 {
			shift -= 2
			c := n.children[(hash>>shift)&3]
			if c == nil {
				return
			}
			if c.leaf {
				found = true
				break
			}
			n = c
		}
		if !found {
			panic("route table: ran out of hash bits")
		}
		n.mu.Lock()
		if c := n.children[(hash>>shift)&3]; c != nil && c.leaf {
			n.children[(hash>>shift)&3] = nil
			for n.parent != nil && n.empty() {
				shift += 2
				parent := n.parent
				parent.mu.Lock()
				n.dead = true
				parent.children[(hash>>shift)&3] = nil
				n.mu.Unlock()
				n = parent
			}
			n.mu.Unlock()
			return
		}
		n.mu.Unlock()
	}
}

// Prune removes a leaf's slot and prunes the emptied nodes above it,
// hand over hand, counting them; reaching the root ends the walk.
func (t *RouteTable) Prune(n *routeNode, slot uint) (pruned int) {
	n.mu.Lock()
	n.children[slot] = nil
	for n.parent != nil && n.empty() {
		parent := n.parent
		parent.mu.Lock()
		n.dead = true
		n.mu.Unlock()
		n = parent
		pruned++
	}
	if n == t.root {
		n.mu.Unlock()
		return pruned
	}
	n.mu.Unlock()
	return pruned
}

// PruneToRoot is Prune with the unlock forgotten when the walk ends at the
// root: the root stays locked.
func (t *RouteTable) PruneToRoot(n *routeNode, slot uint) (pruned int) {
	n.mu.Lock()
	n.children[slot] = nil
	for n.parent != nil && n.empty() {
		parent := n.parent
		parent.mu.Lock()
		n.dead = true
		n.mu.Unlock()
		n = parent
		pruned++
	}
	if n == t.root {
		return pruned // want `return with n.mu held, but other paths of PruneToRoot release it \(locked at coupling.go:\d+\): the next Lock of it waits forever`
	}
	n.mu.Unlock()
	return pruned
}
