// Package precision holds the shapes that real servers made lockaudit
// report wrongly, each next to a twin that must still be reported: func
// values and interfaces whose targets the package decides, blocking paths
// that cannot run at the call, objects no other goroutine can see yet, and
// locks that guard nothing but the operation.
package precision

import (
	"context"
	"os"
	"sync"
	"time"
)

// now is a test seam: the package sets it to time.Now and nothing else.
var now = time.Now

// Ticker records ticks; its cancel function comes from context.WithCancel.
type Ticker struct {
	mu     sync.Mutex
	last   time.Time
	cancel context.CancelFunc
}

func NewTicker(ctx context.Context) (*Ticker, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &Ticker{cancel: cancel}, ctx
}

// Tick calls the clock seam and the cancel function under the lock: both
// are known, cheap code. Not a finding.
func (t *Ticker) Tick() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = now()
	t.cancel()
}

// Journal flushes through a func field the package sets itself.
type Journal struct {
	mu      sync.Mutex
	pending [][]byte
	f       *os.File
	flush   func([]byte) error
	encode  func([]byte) []byte
}

func OpenJournal(f *os.File) *Journal {
	j := &Journal{f: f}
	j.encode = func(b []byte) []byte { return append([]byte{byte(len(b))}, b...) }
	j.flush = func(b []byte) error {
		_, err := j.f.Write(b)
		return err
	}
	return j
}

// AppendHeld encodes and flushes under the lock: encode is bookkeeping,
// but flush, the only function the package puts in the field, writes the
// file.
func (j *Journal) AppendHeld(b []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	rec := j.encode(b)
	return j.flush(rec) // want `j.mu held across call of func value j.flush, which blocks: OpenJournal.func2 -> os.\(\*File\).Write \(locked at funcvalues.go:62, released by defer\)`
}

// Append is its twin: it encodes under the lock and writes after.
func (j *Journal) Append(b []byte) error {
	j.mu.Lock()
	rec := j.encode(b)
	flush := j.flush
	j.mu.Unlock()
	return flush(rec)
}

// Retrier runs an attempt under its lock through a helper whose only
// callers pass closures: the helper's parameter is resolved at every call
// site.
type Retrier struct {
	mu       sync.Mutex
	attempts int
}

func (r *Retrier) withLock(attempt func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts++
	return attempt() // want `r.mu held across call of func value attempt, which blocks: \(\*Retrier\).DialHeld.func1 -> time.Sleep \(locked at funcvalues.go:86, released by defer\)`
}

// DialHeld backs off under the lock, through withLock.
func (r *Retrier) DialHeld() error {
	return r.withLock(func() error {
		time.Sleep(10 * time.Millisecond)
		return nil
	})
}

// Count is the twin call: its closure only counts.
func (r *Retrier) Count(n *int) error {
	return r.withLock(func() error {
		*n++
		return nil
	})
}

// Registry calls hooks its users register: their code, a warning.
type Registry struct {
	mu      sync.Mutex
	members map[string]string
	onJoin  func(name, addr string)
}

// Options configure a Registry.
type Options struct {
	OnJoin func(name, addr string)
}

func NewRegistry(opts Options) *Registry {
	return &Registry{members: map[string]string{}, onJoin: opts.OnJoin}
}

func (r *Registry) JoinHeld(name, addr string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.members[name] = addr
	r.onJoin(name, addr) // want `r.mu held across call of func value r.onJoin \(locked at funcvalues.go:125, released by defer\)`
}

// Join calls the hook after releasing the lock.
func (r *Registry) Join(name, addr string) {
	r.mu.Lock()
	r.members[name] = addr
	hook := r.onJoin
	r.mu.Unlock()
	hook(name, addr)
}

// SortedSet keeps keys in the order of its users' comparator: comparators,
// like sort.Interface's Less, are pure and fast by convention.
type SortedSet struct {
	mu      sync.Mutex
	keys    [][]byte
	compare func(a, b []byte) int
	// DisableDedup is an option knob: a func() bool read at each insert.
	DisableDedup func() bool
	OnInsert     func(key []byte)
}

func NewSortedSet(compare func(a, b []byte) int) *SortedSet {
	return &SortedSet{compare: compare}
}

// Insert compares keys and reads the knob under the lock. Not a finding.
func (s *SortedSet) Insert(key []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := 0
	for i < len(s.keys) && s.compare(s.keys[i], key) < 0 {
		i++
	}
	if i < len(s.keys) && s.compare(s.keys[i], key) == 0 && !s.DisableDedup() {
		return
	}
	s.keys = append(s.keys[:i], append([][]byte{key}, s.keys[i:]...)...)
}

// InsertNotifyHeld runs the insert hook, the users' code, under the lock.
func (s *SortedSet) InsertNotifyHeld(key []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = append(s.keys, key)
	s.OnInsert(key) // want `s.mu held across call of func value s.OnInsert \(locked at funcvalues.go:171, released by defer\)`
}

// CompactionOptions configure a Compactor; MaxConcurrency is a setting
// read through a getter.
type CompactionOptions struct {
	MaxConcurrency func() int
	OnCompacted    func(n int)
}

// Compactor schedules compactions within its options' limits.
type Compactor struct {
	mu      sync.Mutex
	running int
	opts    CompactionOptions
}

func NewCompactor(opts CompactionOptions) *Compactor { return &Compactor{opts: opts} }

// MaybeSchedule reads the setting under the lock. Not a finding.
func (c *Compactor) MaybeSchedule() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running >= c.opts.MaxConcurrency() {
		return false
	}
	c.running++
	return true
}

// DoneHeld tells the user's hook under the lock.
func (c *Compactor) DoneHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running--
	c.opts.OnCompacted(c.running) // want `c.mu held across call of func value c.opts.OnCompacted \(locked at funcvalues.go:206, released by defer\)`
}

// TableOptions configure a TableWriter. PropertyCollectors are factories
// of the collectors each table gets, settings like any other option;
// OnFinished is a hook.
type TableOptions struct {
	PropertyCollectors []func() PropertyCollector
	OnFinished         []func(name string)
}

// PropertyCollector gathers a table's properties.
type PropertyCollector interface{ Name() string }

// TableWriter writes tables with their options' collectors.
type TableWriter struct {
	mu         sync.Mutex
	opts       *TableOptions
	collectors []string
}

// Describe names the configured collectors under the lock. Not a finding:
// each factory is a setting's getter.
func (w *TableWriter) Describe() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.collectors = w.collectors[:0]
	for i := range w.opts.PropertyCollectors {
		w.collectors = append(w.collectors, w.opts.PropertyCollectors[i]().Name())
	}
	return w.collectors
}

// FinishHeld runs the users' hooks, kept in a slice of the options, under
// the lock.
func (w *TableWriter) FinishHeld(name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := range w.opts.OnFinished {
		w.opts.OnFinished[i](name) // want `w.mu held across call of func value w.opts.OnFinished\[i\] \(locked at funcvalues.go:245, released by defer\)`
	}
}
