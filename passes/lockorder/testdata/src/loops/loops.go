// Package loops holds loops that go round, or leave the loop, with a lock
// still held on one path while their other paths release it, next to
// their corrected twins and to loops that keep a lock beyond an iteration
// on purpose.
package loops

import (
	"errors"
	"net"
	"sync"
	"time"
)

// Replica is one range's replica.
type Replica struct {
	mu         sync.Mutex
	rangeID    int64
	destroyed  bool
	lastActive time.Time
}

// GCQueue finds inactive replicas.
type GCQueue struct {
	replicas []*Replica
	ttl      time.Duration
}

// ScanHeld skips a destroyed replica without unlocking it: the replica
// stays locked for good.
func (q *GCQueue) ScanHeld(now time.Time) []int64 {
	var due []int64
	for _, r := range q.replicas {
		r.mu.Lock()
		if r.destroyed {
			continue // want `continue with q.replicas\[i\].mu held, but other paths of ScanHeld release it \(locked at loops.go:33\): the next Lock of it waits forever`
		}
		if now.Sub(r.lastActive) > q.ttl {
			due = append(due, r.rangeID)
		}
		r.mu.Unlock()
	}
	return due
}

// Scan is its twin.
func (q *GCQueue) Scan(now time.Time) []int64 {
	var due []int64
	for _, r := range q.replicas {
		r.mu.Lock()
		if r.destroyed {
			r.mu.Unlock()
			continue
		}
		if now.Sub(r.lastActive) > q.ttl {
			due = append(due, r.rangeID)
		}
		r.mu.Unlock()
	}
	return due
}

// TouchHeld forgets the Unlock at the end of the loop body, where its
// early skip releases the replica.
func (q *GCQueue) TouchHeld(now time.Time) {
	for _, r := range q.replicas {
		r.mu.Lock()
		if r.destroyed {
			r.mu.Unlock()
			continue
		}
		r.lastActive = now
	} // want `q.replicas\[i\].mu held at the end of the loop body, but other paths of TouchHeld release it \(locked at loops.go:66\): the next Lock of it waits forever`
}

// MarkHeld forgets the Unlock on the path that marks the replica active:
// the continue is the other path's, which releases it.
func (q *GCQueue) MarkHeld(now time.Time) {
	for _, r := range q.replicas {
		r.mu.Lock()
		if !r.destroyed {
			r.lastActive = now
		} else {
			r.mu.Unlock()
			continue
		}
	} // want `q.replicas\[i\].mu held at the end of the loop body, but other paths of MarkHeld release it \(locked at loops.go:79\): the next Lock of it waits forever`
}

// Touch is its twin.
func (q *GCQueue) Touch(now time.Time) {
	for _, r := range q.replicas {
		r.mu.Lock()
		if !r.destroyed {
			r.lastActive = now
		}
		r.mu.Unlock()
	}
}

// Store holds replicas by range, in groups.
type Store struct {
	groups [][]*Replica
}

// ActiveHeld goes on to the next group with a replica of this one
// locked.
func (s *Store) ActiveHeld(now time.Time) int {
	n := 0
outer:
	for _, group := range s.groups {
		for _, r := range group {
			r.mu.Lock()
			if now.Sub(r.lastActive) < time.Second {
				n++
				continue outer // want `continue with s.groups\[i\]\[i\].mu held, but other paths of ActiveHeld release it \(locked at loops.go:112\): the next Lock of it waits forever`
			}
			r.mu.Unlock()
		}
	}
	return n
}

// collect gathers the live replicas of a group: the ones it goes round
// with are in the list it returns, not leaked.
func (s *Store) collect(group []*Replica) []*Replica {
	var locked []*Replica
	for _, r := range group {
		r.mu.Lock()
		if r.destroyed {
			r.mu.Unlock()
			continue
		}
		locked = append(locked, r)
	}
	return locked
}

// TryScan skips the replicas it cannot lock now.
func (s *Store) TryScan(group []*Replica, now time.Time) {
	for _, r := range group {
		if !r.mu.TryLock() {
			continue
		}
		r.lastActive = now
		r.mu.Unlock()
	}
}

// node is a link of a list locked hand over hand.
type node struct {
	mu   sync.Mutex
	next *node
	val  int
}

// find walks the list hand over hand: the lock of each node is carried
// into the next turn, which releases it. A deleted node is skipped with
// its own lock released and the previous node's still held.
func find(head *node, val int) bool {
	head.mu.Lock()
	prev := head
	for n := head.next; n != nil; n = n.next {
		n.mu.Lock()
		if n.val < 0 {
			n.mu.Unlock()
			continue
		}
		prev.mu.Unlock()
		if n.val == val {
			n.mu.Unlock()
			return true
		}
		prev = n
	}
	prev.mu.Unlock()
	return false
}

// addrConn connects to one of a backend's addresses.
type addrConn struct {
	mu         sync.Mutex
	addrs      []string
	lastFailed string
	shutdown   bool
	conn       net.Conn
	dial       func(addr string) (net.Conn, error)
}

// reconnectHeld skips the address that failed last with ac.mu held: the
// next attempt locks it again.
func (ac *addrConn) reconnectHeld() {
	for i := 0; ; i++ {
		ac.mu.Lock()
		if ac.shutdown {
			ac.mu.Unlock()
			return
		}
		addr := ac.addrs[i%len(ac.addrs)]
		if addr == ac.lastFailed && len(ac.addrs) > 1 {
			continue // want `continue with ac.mu held: the next iteration locks it again \(locked at loops.go:193\)`
		}
		ac.mu.Unlock()
		conn, err := ac.dial(addr)
		ac.mu.Lock()
		if err != nil {
			ac.lastFailed = addr
			ac.mu.Unlock()
			continue
		}
		ac.conn = conn
		ac.mu.Unlock()
		return
	}
}

// reconnect is its twin.
func (ac *addrConn) reconnect() {
	for i := 0; ; i++ {
		ac.mu.Lock()
		if ac.shutdown {
			ac.mu.Unlock()
			return
		}
		addr := ac.addrs[i%len(ac.addrs)]
		if addr == ac.lastFailed && len(ac.addrs) > 1 {
			ac.mu.Unlock()
			continue
		}
		ac.mu.Unlock()
		conn, err := ac.dial(addr)
		ac.mu.Lock()
		if err != nil {
			ac.lastFailed = addr
			ac.mu.Unlock()
			continue
		}
		ac.conn = conn
		ac.mu.Unlock()
		return
	}
}

// waitReady holds ac.mu across the whole loop, taken before it: its
// continue keeps the lock it came in with.
func (ac *addrConn) waitReady(ready func() bool) {
	ac.mu.Lock()
	for !ac.shutdown {
		if !ready() {
			ac.mu.Unlock()
			time.Sleep(time.Millisecond)
			ac.mu.Lock()
			continue
		}
		break
	}
	ac.mu.Unlock()
}

// Pool hands out workers.
type Pool struct {
	mu      sync.Mutex
	workers []*worker
	closed  bool
}

type worker struct {
	mu   sync.Mutex
	idle bool
	jobs int
}

var errClosed = errors.New("pool closed")

// drainHeld breaks out of its loop with p.mu held into the return that
// the loop's normal end shares, after releasing it.
func (p *Pool) drainHeld(limit int) {
	for i := 0; i < limit; i++ {
		p.mu.Lock()
		if len(p.workers) == 0 {
			break // want `break with p.mu held, to the return at loops.go:285, but other paths of drainHeld release it \(locked at loops.go:278\): the next Lock of it waits forever`
		}
		p.workers = p.workers[1:]
		p.mu.Unlock()
	}
}

// drain is its twin.
func (p *Pool) drain(limit int) {
	for i := 0; i < limit; i++ {
		p.mu.Lock()
		if len(p.workers) == 0 {
			p.mu.Unlock()
			break
		}
		p.workers = p.workers[1:]
		p.mu.Unlock()
	}
}

// firstIdle returns the first idle worker; the caller must unlock it.
func (p *Pool) firstIdle() *worker {
	var found *worker
	for _, w := range p.workers {
		w.mu.Lock()
		if w.idle {
			found = w
			break
		}
		w.mu.Unlock()
	}
	return found
}

// Acquire waits for the pool to have a worker. A nil error tells the
// caller that p.mu is now its own.
func (p *Pool) Acquire() error {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			break
		}
		if len(p.workers) > 0 {
			return nil
		}
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	return errClosed
}

// takeHeld retries with goto, once with p.mu released and once with it
// still held: that retry locks it again.
func (p *Pool) takeHeld() *worker {
retry:
	p.mu.Lock()
	if len(p.workers) == 0 {
		if p.closed {
			p.mu.Unlock()
			time.Sleep(time.Millisecond)
			goto retry
		}
		goto retry // want `goto with p.mu held: the next iteration locks it again \(locked at loops.go:336\)`
	}
	w := p.workers[0]
	p.workers = p.workers[1:]
	p.mu.Unlock()
	return w
}

// take is its twin.
func (p *Pool) take() *worker {
retry:
	p.mu.Lock()
	if len(p.workers) == 0 {
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
		goto retry
	}
	w := p.workers[0]
	p.workers = p.workers[1:]
	p.mu.Unlock()
	return w
}
