// Package leaks holds functions that return with a lock held on some paths
// and released on others, next to their corrected twins and to functions
// that return a lock held by contract.
package leaks

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// DeviceSet tracks thin devices, some of them deleted.
type DeviceSet struct {
	sync.Mutex
	deleted []string
	devices map[string]int
}

// CleanupDeletedHeld has an early return before its deferred Unlock: the
// next call of any method that locks the set hangs.
func (d *DeviceSet) CleanupDeletedHeld() error {
	d.Lock()
	if len(d.deleted) == 0 {
		return nil // want `return with d.Mutex held, but other paths of CleanupDeletedHeld release it \(locked at leaks.go:23\): the next Lock of it waits forever`
	}
	defer d.Unlock()
	for _, name := range d.deleted {
		delete(d.devices, name)
	}
	d.deleted = nil
	return nil
}

// CleanupDeleted is its twin: the release is deferred before the check.
func (d *DeviceSet) CleanupDeleted() error {
	d.Lock()
	defer d.Unlock()
	if len(d.deleted) == 0 {
		return nil
	}
	for _, name := range d.deleted {
		delete(d.devices, name)
	}
	d.deleted = nil
	return nil
}

// Service is a registered backend.
type Service struct{ Addr string }

// Registry maps names to services.
type Registry struct {
	mu       sync.RWMutex
	services map[string]*Service
}

// LookupHeld forgets the RUnlock on its error path.
func (r *Registry) LookupHeld(name string) (*Service, error) {
	r.mu.RLock()
	s, ok := r.services[name]
	if !ok {
		return nil, fmt.Errorf("no service %q", name) // want `return with r.mu held, but other paths of LookupHeld release it \(locked at leaks.go:60\)`
	}
	r.mu.RUnlock()
	return s, nil
}

// Lookup is its twin.
func (r *Registry) Lookup(name string) (*Service, error) {
	r.mu.RLock()
	s, ok := r.services[name]
	r.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no service %q", name)
	}
	return s, nil
}

// ErrClosed is returned by a closed queue.
var ErrClosed = errors.New("queue closed")

// Queue is a job queue that pushes in two steps.
type Queue struct {
	mu     sync.Mutex
	closed bool
	jobs   []func()
}

// BeginPush returns nil with q's lock held, or ErrClosed without it: the
// result tells the caller whether it must finish the push.
func (q *Queue) BeginPush() error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// FinishPush appends the job and releases the lock BeginPush took.
func (q *Queue) FinishPush(job func()) {
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
}

// acquireOpen reports whether the queue is open.
func (q *Queue) acquireOpen() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	return true
}

// Push uses acquireOpen.
func (q *Queue) Push(job func()) bool {
	if !q.acquireOpen() {
		return false
	}
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
	return true
}

// Store is a key-value store with transactions.
type Store struct {
	mu   sync.Mutex
	data map[string]string
}

// Tx is a transaction of a Store. It owns the store's lock from beginTx
// until Close releases it.
type Tx struct{ s *Store }

// beginTx starts a transaction, or fails on an empty store.
func (s *Store) beginTx() (*Tx, error) {
	s.mu.Lock()
	if s.data == nil {
		s.mu.Unlock()
		return nil, errors.New("store not open")
	}
	return &Tx{s: s}, nil
}

// Close ends the transaction.
func (tx *Tx) Close() { tx.s.mu.Unlock() }

// Ticker fires a callback after a delay unless stopped.
type Ticker struct {
	mu      sync.Mutex
	stopped bool
	fired   int
}

// ScheduleHeld's timer callback forgets the Unlock when the ticker was
// stopped.
func (t *Ticker) ScheduleHeld(d time.Duration) {
	time.AfterFunc(d, func() {
		t.mu.Lock()
		if t.stopped {
			return // want `return with t.mu held, but other paths of the func literal in ScheduleHeld release it \(locked at leaks.go:161\)`
		}
		t.fired++
		t.mu.Unlock()
	})
}

// Schedule is its twin.
func (t *Ticker) Schedule(d time.Duration) {
	time.AfterFunc(d, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.stopped {
			return
		}
		t.fired++
	})
}

// Routes is a routing table keyed by subject tokens.
type Routes struct {
	mu    sync.Mutex
	table map[string]int
}

// Insert validates the tokens in a range-over-func loop and unlocks on the
// way out of it: every return releases the lock.
func (r *Routes) Insert(tokens func(func(string) bool), id int) error {
	r.mu.Lock()
	for tok := range tokens {
		if tok == "" {
			r.mu.Unlock()
			return errors.New("empty token")
		}
		r.table[tok] = id
	}
	r.mu.Unlock()
	return nil
}

// newRoutes builds a table under its lock; on error the table is dropped
// before anyone else has seen it, so the lock it keeps matters to nobody.
func newRoutes(seed map[string]int) (*Routes, error) {
	r := &Routes{table: map[string]int{}}
	r.mu.Lock()
	for tok, id := range seed {
		if tok == "" {
			return nil, errors.New("empty token")
		}
		r.table[tok] = id
	}
	r.mu.Unlock()
	return r, nil
}

// A batch applier stages writes under the log's lock and, on any failure,
// rolls back through one closure that restores the sequence and unlocks.
type Log struct {
	mu  sync.Mutex
	seq uint64
}

func (l *Log) stage(entry string) bool { return entry != "" }

// ApplyBatch releases the lock through rollback on every failing path,
// also from a helper closure that reports the error. Not a leak.
func (l *Log) ApplyBatch(entries []string) error {
	l.mu.Lock()
	start := l.seq
	rollback := func() {
		l.seq = start
		l.mu.Unlock()
	}
	fail := func(e string) error {
		rollback()
		return fmt.Errorf("bad entry %q", e)
	}
	for _, e := range entries {
		if e == "" {
			return fail(e)
		}
		if !l.stage(e) {
			rollback()
			return fmt.Errorf("cannot stage %q", e)
		}
		l.seq++
	}
	l.mu.Unlock()
	return nil
}

// ApplyBatchHeld restores the sequence on failure but forgets the unlock.
func (l *Log) ApplyBatchHeld(entries []string) error {
	l.mu.Lock()
	start := l.seq
	restore := func() { l.seq = start }
	for _, e := range entries {
		if !l.stage(e) {
			restore()
			return fmt.Errorf("cannot stage %q", e) // want `return with l.mu held, but other paths of ApplyBatchHeld release it \(locked at leaks.go:256\)`
		}
		l.seq++
	}
	l.mu.Unlock()
	return nil
}

// A store recovers its state under its lock; a deferred closure unlocks
// on the early returns, unless the code already did.
type Recovery struct {
	mu    sync.Mutex
	state map[string]int
}

func (r *Recovery) load(name string) error {
	if name == "" {
		return fmt.Errorf("no name")
	}
	return nil
}

// Open returns early on errors; the deferred closure releases r.mu there.
// Not a leak.
func (r *Recovery) Open(names []string) error {
	r.mu.Lock()
	unlocked := false
	defer func() {
		if !unlocked {
			r.mu.Unlock()
		}
	}()
	for _, n := range names {
		if err := r.load(n); err != nil {
			return err
		}
	}
	unlocked = true
	r.mu.Unlock()
	return nil
}

// OpenHeld has the same flag but no deferred unlock: the early return
// keeps r.mu.
func (r *Recovery) OpenHeld(names []string) error {
	r.mu.Lock()
	unlocked := false
	for _, n := range names {
		if err := r.load(n); err != nil {
			return err // want `return with r.mu held, but other paths of OpenHeld release it \(locked at leaks.go:307\): the next Lock of it waits forever`
		}
	}
	unlocked = true
	r.mu.Unlock()
	_ = unlocked
	return nil
}

var recoveries = map[string]*Recovery{}

// OpenRecovery builds and registers a store, then recovers it under its
// lock with the same deferred guard, through its named result. Not a leak.
func OpenRecovery(name string, names []string) (r *Recovery, err error) {
	r = &Recovery{state: map[string]int{}}
	recoveries[name] = r
	r.mu.Lock()
	unlocked := false
	defer func() {
		if !unlocked {
			r.mu.Unlock()
		}
	}()
	for _, n := range names {
		if err = r.load(n); err != nil {
			return nil, err
		}
	}
	unlocked = true
	r.mu.Unlock()
	return r, nil
}

// A journal replays its entries under its lock; an error path unlocks by
// hand and returns, and the deferred unlock runs again.
type Journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *Journal) check(e string) error {
	if e == "" {
		return fmt.Errorf("empty entry")
	}
	return nil
}

// ReplayTwice unlocks on its error path while the defer is pending.
func (j *Journal) ReplayTwice() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.entries {
		if err := j.check(e); err != nil {
			j.mu.Unlock()
			return err // want `return with j.mu already unlocked, but the deferred unlock \(leaks.go:361\) unlocks it again: a fatal error, not a panic`
		}
	}
	return nil
}

// Replay leaves the unlock to the defer. Not a finding.
func (j *Journal) Replay() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.entries {
		if err := j.check(e); err != nil {
			return err
		}
	}
	return nil
}

// ReplayWaiting unlocks to wait and locks again before it returns: the
// deferred unlock finds the lock held. Not a finding.
func (j *Journal) ReplayWaiting(ready chan struct{}) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.mu.Unlock()
	<-ready
	j.mu.Lock()
	return nil
}

// OpenTwice unlocks by hand on its first error path but leaves the flag
// false: the deferred closure unlocks r.mu a second time.
func (r *Recovery) OpenTwice(names []string) error {
	r.mu.Lock()
	unlocked := false
	defer func() {
		if !unlocked {
			r.mu.Unlock()
		}
	}()
	if err := r.load("meta"); err != nil {
		r.mu.Unlock()
		return err // want `return with r.mu already unlocked, but the deferred unlock \(leaks.go:399\) unlocks it again: a fatal error, not a panic`
	}
	for _, n := range names {
		if err := r.load(n); err != nil {
			return err
		}
	}
	unlocked = true
	r.mu.Unlock()
	return nil
}

// ReplayInspect unlocks to let others look, and takes the lock back in a
// defer that runs before the deferred unlock. Not a finding.
func (j *Journal) ReplayInspect(inspect func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = j.entries[:0]
	j.mu.Unlock()
	defer j.mu.Lock()
	inspect()
}

// Authenticate unlocks by hand before it returns; its deferred closure
// takes and releases the lock itself when the flag says so. Not a finding.
func (r *Recovery) Authenticate(name string) bool {
	failed := true
	defer func() {
		if !failed {
			return
		}
		r.mu.Lock()
		r.state[name] = -1
		r.mu.Unlock()
	}()
	r.mu.Lock()
	if name == "" {
		r.mu.Unlock()
		return false
	}
	r.state[name]++
	r.mu.Unlock()
	failed = false
	return true
}

// Notify drops the lock around the hook in a closure that takes it back
// as it returns: the deferred unlock finds it held. Not a finding.
func (j *Journal) Notify(hook func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	func() {
		j.mu.Unlock()
		defer j.mu.Lock()
		hook()
	}()
}

// A fetcher that drops its lock around the network round trip, in a helper
// that takes the lock back when it returns: the caller's deferred Unlock
// finds the lock held again.
type Fetcher struct {
	mu    sync.Mutex
	cache map[string][]byte
}

// unlocked runs fetch with f.mu released, and locks it again on the way
// out, whatever fetch does.
func (f *Fetcher) unlocked(fetch func() ([]byte, error)) ([]byte, error) {
	f.mu.Unlock()
	defer f.mu.Lock()
	return fetch()
}

// Get fetches a missing key without holding f.mu. Not a finding.
func (f *Fetcher) Get(key string, fetch func() ([]byte, error)) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.cache[key]; ok {
		return b, nil
	}
	b, err := f.unlocked(fetch)
	if err != nil {
		return nil, err
	}
	f.cache[key] = b
	return b, nil
}

// unlockedOnce drops the lock and does not take it back.
func (f *Fetcher) unlockedOnce(fetch func() ([]byte, error)) ([]byte, error) {
	f.mu.Unlock()
	return fetch()
}

// GetDropped lets the helper drop f.mu for good, and its deferred Unlock
// then unlocks an unlocked mutex.
func (f *Fetcher) GetDropped(key string, fetch func() ([]byte, error)) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.cache[key]; ok {
		return b, nil
	}
	return f.unlockedOnce(fetch) // want `return with f.mu already unlocked, but the deferred unlock \(leaks.go:\d+\) unlocks it again: a fatal error, not a panic`
}

// A row cursor whose Scan can lend its buffer out. The close lock stays
// read-locked while the row is lent; a flag tells Next so.
type Rows struct {
	closemu  sync.RWMutex
	holdScan bool
	buf      [][]byte
	cur      int
}

// Scan copies the current row into dest, or lends it. Not a
// finding: holdScan records that the lock is still read-locked.
func (r *Rows) Scan(dest *[]byte) error {
	r.closemu.RLock()
	err := r.scanLocked(dest)
	if err == nil && lends(dest) {
		r.holdScan = true
	} else {
		r.closemu.RUnlock()
	}
	return err
}

// ScanForgetting lends the row with nothing to tell Next to release
// the lock.
func (r *Rows) ScanForgetting(dest *[]byte) error {
	r.closemu.RLock()
	err := r.scanLocked(dest)
	if err != nil || !lends(dest) {
		r.closemu.RUnlock()
	}
	return err // want `return with r.closemu held, but other paths of ScanForgetting release it \(locked at leaks.go:\d+\): the next Lock of it waits forever`
}

// Next releases a hold Scan left, and moves on.
func (r *Rows) Next() bool {
	if r.holdScan {
		r.holdScan = false
		r.closemu.RUnlock()
	}
	r.closemu.RLock()
	defer r.closemu.RUnlock()
	r.cur++
	return r.cur < len(r.buf)
}

func (r *Rows) scanLocked(dest *[]byte) error {
	if r.cur >= len(r.buf) {
		return errNoRow
	}
	if *dest == nil {
		*dest = r.buf[r.cur] // lent: no copy
	} else {
		*dest = append((*dest)[:0], r.buf[r.cur]...)
	}
	return nil
}

// lends reports whether Scan lent the row to dest: a nil dest asks for
// the buffer itself.
func lends(dest *[]byte) bool { return cap(*dest) > 0 && len(*dest) == 0 }

var errNoRow = fmt.Errorf("no row")
