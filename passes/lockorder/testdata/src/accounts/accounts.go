// Package accounts moves money between two accounts, each with its own
// lock: the classic pair of instances of one lock class.
package accounts

import "sync"

type Account struct {
	mu      sync.Mutex
	id      uint64
	balance int64
}

// TransferHeld locks the source, then the destination: Transfer(a, b)
// beside Transfer(b, a) deadlocks.
func TransferHeld(from, to *Account, amount int64) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // want `to.mu locked while from.mu, a lock of the same class, is held \(locked at accounts.go:16\), in no fixed order: a call with the two swapped deadlocks`
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

// Transfer is its twin: the account with the lower id is always locked
// first.
func Transfer(from, to *Account, amount int64) {
	first, second := from, to
	if to.id < from.id {
		first, second = to, from
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

// MergeHeld is a method: the receiver and the argument are the two.
func (a *Account) MergeHeld(b *Account) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock() // want `b.mu locked while a.mu, a lock of the same class, is held \(locked at accounts.go:41\), in no fixed order: a call with the two swapped deadlocks`
	defer b.mu.Unlock()
	a.balance += b.balance
	b.balance = 0
}

// Merge is its twin, ordered by id.
func (a *Account) Merge(b *Account) {
	if a.id > b.id {
		b.mu.Lock()
		a.mu.Lock()
	} else {
		a.mu.Lock()
		b.mu.Lock()
	}
	a.balance += b.balance
	b.balance = 0
	a.mu.Unlock()
	b.mu.Unlock()
}

// Node is a tree node: a parent is always locked before its child.
type Node struct {
	mu       sync.Mutex
	children map[string]*Node
	value    int
}

// Bump locks a node and then its child: ordered by the tree, not a
// finding.
func (n *Node) Bump(key string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	child := n.children[key]
	child.mu.Lock()
	child.value++
	child.mu.Unlock()
}
