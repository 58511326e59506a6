// The package fact (its lock-order edges) is checked in helpers.go.

// Package dispatch holds lock-order inversions where one side goes through
// an interface method call whose implementations are known: the field the
// interface value is loaded from only ever holds the package's own type.
package dispatch

import "sync"

// Store persists jobs. Other packages may implement it, but the
// scheduler's field only ever holds the package's memStore.
type Store interface {
	Save(id string, spec []byte)
	Flush()
}

// Scheduler runs jobs and keeps their specs in a store.
type Scheduler struct {
	mu      sync.Mutex
	running map[string]bool
	saved   int
	store   Store
}

// NewScheduler returns a scheduler over an in-memory store.
func NewScheduler() *Scheduler {
	s := &Scheduler{running: map[string]bool{}}
	s.store = &memStore{sched: s, specs: map[string][]byte{}}
	return s
}

// Submit saves the spec while holding s.mu: s.mu, then the store's m.mu.
func (s *Scheduler) Submit(id string, spec []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running[id] = true
	s.store.Save(id, spec) // want `s.store.mu locked through call of Store.Save \(dispatched to \(\*memStore\).Save\) while holding s.mu \(locked at scheduler.go:34\); the opposite order is taken at scheduler.go:75: lock-order inversion`
}

func (s *Scheduler) onSaved() {
	s.mu.Lock()
	s.saved++
	s.mu.Unlock()
}

// Cancel flushes the store after it releases s.mu: no order between the
// two.
func (s *Scheduler) Cancel(id string) {
	s.mu.Lock()
	delete(s.running, id)
	s.mu.Unlock()
	s.store.Flush()
}

// memStore keeps specs in memory and tells its scheduler when one is saved.
type memStore struct {
	mu    sync.Mutex
	sched *Scheduler
	specs map[string][]byte
	dirty int
}

func (m *memStore) Save(id string, spec []byte) {
	m.mu.Lock()
	m.specs[id] = spec
	m.dirty++
	m.mu.Unlock()
}

// Flush tells the scheduler under m.mu: m.mu, then m.sched.mu.
func (m *memStore) Flush() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dirty = 0
	m.sched.onSaved() // want `m.sched.mu locked through call of \(\*Scheduler\).onSaved while holding m.mu \(locked at scheduler.go:72\); the opposite order is taken at scheduler.go:37: lock-order inversion`
}

// Queue is Scheduler's twin: its store tells it after the store's lock
// is released.
type Queue struct {
	mu      sync.Mutex
	pending []string
	saved   int
	store   Store
}

// NewQueue returns a queue over an in-memory store.
func NewQueue() *Queue {
	q := &Queue{}
	q.store = &queueStore{queue: q}
	return q
}

// Push saves the spec while holding q.mu.
func (q *Queue) Push(id string, spec []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, id)
	q.store.Save(id, spec)
}

func (q *Queue) onSaved() {
	q.mu.Lock()
	q.saved++
	q.mu.Unlock()
}

type queueStore struct {
	mu    sync.Mutex
	queue *Queue
	specs [][]byte
}

func (m *queueStore) Save(id string, spec []byte) {
	m.mu.Lock()
	m.specs = append(m.specs, spec)
	m.mu.Unlock()
}

func (m *queueStore) Flush() {
	m.mu.Lock()
	m.specs = nil
	m.mu.Unlock()
	m.queue.onSaved()
}

// Hooks are called by a Runner; callers supply their own.
type Hooks interface {
	Started(id string)
}

// Runner runs jobs with the hooks its caller gave it: the implementations
// are open, so no order is recorded through them, and the package's own
// implementation, which takes the runner's lock class, is only a note.
type Runner struct {
	mu    sync.Mutex
	hooks Hooks
	n     int
}

// NewRunner returns a runner calling h.
func NewRunner(h Hooks) *Runner { return &Runner{hooks: h} }

// Start calls the hooks under r.mu.
func (r *Runner) Start(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.hooks.Started(id) // want `r.mu locked again through call of Started, which the program implements with \(\*countingHooks\).Started, while held \(locked at scheduler.go:146\) \(plausible: the implementation locks another instance of the class, or this one\)`
}

// countingHooks is the package's own Hooks: it counts under its lock and
// reads the runner's count.
type countingHooks struct {
	mu     sync.Mutex
	runner *Runner
	seen   int
}

func (h *countingHooks) Started(string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runner.mu.Lock()
	h.seen = h.runner.n
	h.runner.mu.Unlock()
}
