package cond

import "sync"

// ChangeQueue hands peers' state changes to one worker. Its Cond is a
// value field, tied to lk by a composite literal in the constructor:
// waiting on it releases lk.
type ChangeQueue struct {
	lk    sync.Mutex
	cond  sync.Cond
	peers []string
	stop  bool
}

func NewChangeQueue() *ChangeQueue {
	q := &ChangeQueue{}
	q.cond = sync.Cond{L: &q.lk}
	return q
}

// waitChange waits for a change or for the stop; q.lk must be held.
func (q *ChangeQueue) waitChange() bool {
	for !q.stop && len(q.peers) == 0 {
		q.cond.Wait()
	}
	return !q.stop
}

// Next holds q.lk across the wait on its own Cond: not a finding.
func (q *ChangeQueue) Next() (string, bool) {
	q.lk.Lock()
	defer q.lk.Unlock()
	if !q.waitChange() {
		return "", false
	}
	p := q.peers[0]
	q.peers = q.peers[1:]
	return p, true
}

// PeerTable is its twin whose Cond value is tied to another lock: waiting
// on it releases changesMu, and mu stays held while the table waits.
type PeerTable struct {
	mu        sync.Mutex
	changesMu sync.Mutex
	changed   sync.Cond
	peers     map[string]int
	changes   int
}

func NewPeerTable() *PeerTable {
	t := &PeerTable{peers: map[string]int{}}
	t.changed = sync.Cond{L: &t.changesMu}
	return t
}

func (t *PeerTable) WaitChange() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.changesMu.Lock()
	for t.changes == 0 {
		t.changed.Wait() // want `t.mu held across call of \(\*sync.Cond\).Wait \(locked at value_cond.go:\d+, released by defer\)`
	}
	n := t.changes
	t.changesMu.Unlock()
	return n + len(t.peers)
}
