// Package loops holds locks in loops and branches: unlock/relock windows,
// locks taken per iteration, and locks held on some paths only (may-held,
// never reported). Each positive is next to its correct twin.
package loops

import (
	"maps"
	"slices"
	"sync"
	"time"
)

// Task is queued work.
type Task struct {
	ID  int
	Run func() error
}

// Queue is a work queue drained by one worker loop.
type Queue struct {
	mu      sync.Mutex
	tasks   []Task
	failed  []int
	onError func(id int, err error)
}

// DrainHeld runs every task with the queue locked.
func (q *Queue) DrainHeld() {
	q.mu.Lock()
	for len(q.tasks) > 0 {
		t := q.tasks[0]
		q.tasks = q.tasks[1:]
		if err := t.Run(); err != nil { // want `q.mu held across call of func value t.Run \(locked at loops.go:29\)`
			q.failed = append(q.failed, t.ID)
		}
	}
	q.mu.Unlock()
}

// Drain opens an unlock/relock window around each task.
func (q *Queue) Drain() {
	q.mu.Lock()
	for len(q.tasks) > 0 {
		t := q.tasks[0]
		q.tasks = q.tasks[1:]
		q.mu.Unlock()
		err := t.Run()
		q.mu.Lock()
		if err != nil {
			q.failed = append(q.failed, t.ID)
		}
	}
	q.mu.Unlock()
}

// WorkHeld takes the lock per iteration and reports the error before
// releasing it.
func (q *Queue) WorkHeld() {
	for {
		q.mu.Lock()
		if len(q.tasks) == 0 {
			q.mu.Unlock()
			return
		}
		t := q.tasks[0]
		q.tasks = q.tasks[1:]
		if err := t.Run(); err != nil { // want `q.mu held across call of func value t.Run \(locked at loops.go:60\)`
			q.onError(t.ID, err) // want `q.mu held across call of func value q.onError \(locked at loops.go:60\) \(plausible: the func value can be field onError, which the package never sets\)`
		}
		q.mu.Unlock()
	}
}

// Work pops under the lock and runs after releasing it, each iteration.
func (q *Queue) Work() {
	for {
		q.mu.Lock()
		if len(q.tasks) == 0 {
			q.mu.Unlock()
			return
		}
		t := q.tasks[0]
		q.tasks = q.tasks[1:]
		q.mu.Unlock()
		if err := t.Run(); err != nil {
			q.onError(t.ID, err)
		}
	}
}

// Ticker refreshes a value periodically.
type Ticker struct {
	mu      sync.Mutex
	value   int64
	stop    bool
	refresh func() int64
}

// LoopHeld sleeps between refreshes with the lock held across the sleep.
func (t *Ticker) LoopHeld(every time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for !t.stop {
		t.value = t.refresh() // want `t.mu held across call of func value t.refresh \(locked at loops.go:101, released by defer\) \(plausible: the func value can be field refresh, which the package never sets\)`
		time.Sleep(every)     // want `t.mu held across call of time.Sleep \(locked at loops.go:101, released by defer\)`
	}
}

// Loop keeps the lock for the flag and the store only.
func (t *Ticker) Loop(every time.Duration) {
	for {
		t.mu.Lock()
		stop := t.stop
		t.mu.Unlock()
		if stop {
			return
		}
		v := t.refresh()
		t.mu.Lock()
		t.value = v
		t.mu.Unlock()
		time.Sleep(every)
	}
}

// Optional locks only when asked to: after the branch the lock is held on
// some paths only, which is never reported.
type Optional struct {
	mu     sync.Mutex
	shared bool
	n      int
	notify func(int)
}

func (o *Optional) Add(d int) {
	if o.shared {
		o.mu.Lock()
	}
	o.n += d
	o.notify(o.n)
	if o.shared {
		o.mu.Unlock()
	}
}

// AddLockedHeld locks on every path and notifies under the lock.
func (o *Optional) AddLockedHeld(d int) {
	o.mu.Lock()
	o.n += d
	o.notify(o.n) // want `o.mu held across call of func value o.notify \(locked at loops.go:148\) \(plausible: the func value can be field notify, which the package never sets\)`
	o.mu.Unlock()
}

// AddLocked updates under the lock and notifies after releasing it.
func (o *Optional) AddLocked(d int) {
	o.mu.Lock()
	o.n += d
	n := o.n
	o.mu.Unlock()
	o.notify(n)
}

// EarlyHeld returns early on one branch after unlocking, but notifies
// under the lock on the other.
func (o *Optional) EarlyHeld(d int) {
	o.mu.Lock()
	if d == 0 {
		o.mu.Unlock()
		return
	}
	o.n += d
	o.notify(o.n) // want `o.mu held across call of func value o.notify \(locked at loops.go:166\) \(plausible: the func value can be field notify, which the package never sets\)`
	o.mu.Unlock()
}

// Early unlocks on both branches before notifying.
func (o *Optional) Early(d int) {
	o.mu.Lock()
	if d == 0 {
		o.mu.Unlock()
		return
	}
	o.n += d
	n := o.n
	o.mu.Unlock()
	o.notify(n)
}

// BranchUnlock unlocks in one branch only; the notify after the join sees
// the lock on some paths only, which is not reported.
func (o *Optional) BranchUnlock(d int, fast bool) {
	o.mu.Lock()
	o.n += d
	if fast {
		o.mu.Unlock()
	}
	o.notify(d)
	if !fast {
		o.mu.Unlock()
	}
}

// Conn is a replication connection.
type Conn struct {
	mu      sync.Mutex
	pending [][]byte
	send    func([]byte) error
}

// sendAllLocked is called with c.mu held and keeps it across each send.
func (c *Conn) sendAllLocked() error {
	for len(c.pending) > 0 {
		b := c.pending[0]
		c.pending = c.pending[1:]
		if err := c.send(b); err != nil {
			return err
		}
	}
	return nil
}

// FlushHeld calls the helper with the lock held. (Its twin, Flush, whose
// helper opens an unlock/relock window around each send, is in
// pending/relock_window_callee.go.)
func (c *Conn) FlushHeld() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sendAllLocked() // want `c.mu held across call of \(\*Conn\).sendAllLocked, which calls func value c.send \(\(\*Conn\).sendAllLocked -> func value c.send\) \(locked at loops.go:226, released by defer\) \(plausible: the func value can be field send, which the package never sets\)`
}

// Index maps terms to posting lists and tells a hook about dropped terms.
type Index struct {
	mu     sync.Mutex
	terms  map[string][]int
	onDrop func(term string)
}

// ResetHeld ranges over a standard-library iterator with the index
// locked; the loop body runs under the lock, and so does the hook.
func (x *Index) ResetHeld() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for term := range maps.Keys(x.terms) {
		x.onDrop(term) // want `x.mu held across call of func value x.onDrop \(locked at loops.go:241, released by defer\) \(plausible: the func value can be field onDrop, which the package never sets\)`
	}
	x.terms = map[string][]int{}
}

// Reset collects the terms through the iterator under the lock and calls
// the hook after.
func (x *Index) Reset() {
	x.mu.Lock()
	terms := slices.Collect(maps.Keys(x.terms))
	x.terms = map[string][]int{}
	x.mu.Unlock()
	for _, term := range terms {
		x.onDrop(term)
	}
}

// Replicator ships log entries to followers; large entries are shipped
// with the lock released.
type Replicator struct {
	mu      sync.Mutex
	entries [][]byte
	ship    func([]byte) error
	onSent  func(n int)
}

// ShipHeld opens a window for large entries only, but reports every entry
// under the lock: after the branch the lock is held again on both paths.
func (r *Replicator) ShipHeld() {
	r.mu.Lock()
	for i, e := range r.entries {
		if len(e) > 1<<20 {
			r.mu.Unlock()
			r.ship(e)
			r.mu.Lock()
		}
		r.onSent(i) // want `r.mu held across call of func value r.onSent \(locked at loops.go:273\) \(plausible: the func value can be field onSent, which the package never sets\)`
	}
	r.mu.Unlock()
}

// Ship snapshots the entries and ships and reports without the lock.
func (r *Replicator) Ship() {
	r.mu.Lock()
	entries := r.entries
	r.entries = nil
	r.mu.Unlock()
	for i, e := range entries {
		r.ship(e)
		r.onSent(i)
	}
}
