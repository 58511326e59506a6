// want package:"5 lock-order edges"

// Package condclasses holds locks that only a sync.Cond's L reaches: each
// Cond's is a lock of its own, not one class of all Conds' locks.
package condclasses

import "sync"

// pipe is a connection whose writes wait on a ring of slots; each slot's
// Cond has a lock of its own.
type pipe struct {
	m     sync.RWMutex
	slots []*slot
}

type slot struct {
	cond *sync.Cond
	cmd  string
}

func newPipe(n int) *pipe {
	p := &pipe{}
	for range n {
		p.slots = append(p.slots, &slot{cond: sync.NewCond(&sync.Mutex{})})
	}
	return p
}

// Close takes each slot's lock under the pipe's lock.
func (p *pipe) Close() {
	p.m.Lock()
	defer p.m.Unlock()
	for _, s := range p.slots {
		s.cond.L.Lock()
		s.cmd = ""
		s.cond.L.Unlock()
	}
}

// pool keeps idle pipes behind a Cond of its own lock.
type pool struct {
	cond *sync.Cond
	list []*pipe
}

func newPool() *pool { return &pool{cond: sync.NewCond(&sync.Mutex{})} }

// Close closes the idle pipes under the pool's Cond lock: a slot's lock
// is another lock, not in a cycle with the pool's. Not a finding.
func (q *pool) Close() {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for _, p := range q.list {
		p.Close()
	}
	q.list = nil
}

// Acquire waits for an idle pipe; the pipe's lock is never held here.
func (q *pool) Acquire() *pipe {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for len(q.list) == 0 {
		q.cond.Wait()
	}
	p := q.list[0]
	q.list = q.list[1:]
	return p
}

// mailbox takes its Cond's lock and a slot's lock in both orders.
type mailbox struct {
	cond  *sync.Cond
	inbox *slot
	n     int
}

func (b *mailbox) deliver() {
	b.cond.L.Lock()
	defer b.cond.L.Unlock()
	b.inbox.cond.L.Lock() // want `b.inbox.cond.L locked while holding b.cond.L \(locked at condclasses.go:\d+\); the opposite order is taken at condclasses.go:\d+: lock-order inversion`
	b.n++
	b.inbox.cond.L.Unlock()
}

func (b *mailbox) reset() {
	b.inbox.cond.L.Lock()
	defer b.inbox.cond.L.Unlock()
	b.cond.L.Lock() // want `b.cond.L locked while holding b.inbox.cond.L \(locked at condclasses.go:\d+\); the opposite order is taken at condclasses.go:\d+: lock-order inversion`
	b.n = 0
	b.cond.L.Unlock()
}
