package cond

import "sync"

// ConnPool hands out connections, up to a limit. Its lock is kept as a
// sync.Locker, and its Cond is made on the same mutex, in one literal:
// waiting on the Cond releases p.lock.
type ConnPool struct {
	lock  sync.Locker
	cond  *sync.Cond
	idle  []int
	limit int
	open  int
}

func NewConnPool(limit int) *ConnPool {
	lock := new(sync.Mutex)
	return &ConnPool{
		lock:  lock,
		cond:  sync.NewCond(lock),
		limit: limit,
	}
}

// Get waits for an idle connection or room for a new one: not a finding.
func (p *ConnPool) Get() int {
	p.lock.Lock()
	defer p.lock.Unlock()
	for len(p.idle) == 0 && p.open >= p.limit {
		p.cond.Wait()
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return c
	}
	p.open++
	return p.open
}

// WorkerPool is its twin whose Cond is made on a mutex of its own: waiting
// on it keeps p.lock held, and Put, which needs p.lock, cannot wake it.
type WorkerPool struct {
	lock    sync.Locker
	cond    *sync.Cond
	workers []int
}

func NewWorkerPool() *WorkerPool {
	return &WorkerPool{
		lock: new(sync.Mutex),
		cond: sync.NewCond(new(sync.Mutex)),
	}
}

func (p *WorkerPool) Get() int {
	p.lock.Lock()
	defer p.lock.Unlock()
	for len(p.workers) == 0 {
		p.cond.Wait() // want `p.lock held across call of \(\*sync.Cond\).Wait \(locked at locker_field.go:\d+, released by defer\)`
	}
	w := p.workers[0]
	p.workers = p.workers[1:]
	return w
}

// SlotPool is ConnPool with the Cond built as a literal on the same lock:
// not a finding either.
type SlotPool struct {
	lock  sync.Locker
	freed *sync.Cond
	free  int
}

func NewSlotPool(n int) *SlotPool {
	lock := new(sync.Mutex)
	return &SlotPool{lock: lock, freed: &sync.Cond{L: lock}, free: n}
}

func (p *SlotPool) Acquire() {
	p.lock.Lock()
	defer p.lock.Unlock()
	for p.free == 0 {
		p.freed.Wait()
	}
	p.free--
}
