// Package locktable holds maps of per-key locks: tables whose guard is held
// only to look up or insert a key's lock (the correct pattern), next to the
// same tables with the guard held while the key's lock is taken, and locks
// of a map's elements taken together in map order.
package locktable

import (
	"sort"
	"sync"
)

// Migrations hands out one mutex per tenant, so that two migrations of one
// tenant never run at once.
type Migrations struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// lockFor returns the tenant's lock, inserting it; the caller holds m.mu.
func (m *Migrations) lockFor(tenant string) *sync.Mutex {
	l, ok := m.locks[tenant]
	if !ok {
		l = new(sync.Mutex)
		m.locks[tenant] = l
	}
	return l
}

// RunHeld waits for the tenant's lock with the table's guard held: one slow
// migration stalls every tenant's.
func (m *Migrations) RunHeld(tenant string, migrate func()) {
	m.mu.Lock() // want `m.mu is held above the per-key lock l \(taken at locktable.go:34\): one lock serialises the keys again`
	l := m.lockFor(tenant)
	l.Lock()
	m.mu.Unlock()
	defer l.Unlock()
	migrate()
}

// Run is its twin: the guard is held to look up or insert the tenant's
// lock and released before that lock is taken.
func (m *Migrations) Run(tenant string, migrate func()) {
	m.mu.Lock()
	l := m.lockFor(tenant)
	m.mu.Unlock()
	l.Lock()
	defer l.Unlock()
	migrate()
}

// TryRunHeld looks the lock up directly, under the guard.
func (m *Migrations) TryRunHeld(tenant string, migrate func()) bool {
	m.mu.Lock() // want `m.mu is held above the per-key lock l \(taken at locktable.go:59\): one lock serialises the keys again`
	defer m.mu.Unlock()
	l, ok := m.locks[tenant]
	if !ok {
		return false
	}
	l.Lock()
	defer l.Unlock()
	migrate()
	return true
}

// TryRun is its twin.
func (m *Migrations) TryRun(tenant string, migrate func()) bool {
	m.mu.Lock()
	l, ok := m.locks[tenant]
	m.mu.Unlock()
	if !ok {
		return false
	}
	l.Lock()
	defer l.Unlock()
	migrate()
	return true
}

type account struct {
	mu      sync.Mutex
	balance int64
}

// Ledger keeps one entry per account, each with its own lock.
type Ledger struct {
	mu       sync.Mutex
	accounts map[string]*account
}

// Open inserts an account under the guard. Not a finding: no account is
// locked.
func (l *Ledger) Open(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.accounts[id]; !ok {
		l.accounts[id] = &account{}
	}
}

// DepositHeld updates the account with the ledger's lock held.
func (l *Ledger) DepositHeld(id string, amount int64) bool {
	l.mu.Lock() // want `l.mu is held above the per-key lock a.mu \(taken at locktable.go:108\): one lock serialises the keys again`
	defer l.mu.Unlock()
	a, ok := l.accounts[id]
	if !ok {
		return false
	}
	a.mu.Lock()
	a.balance += amount
	a.mu.Unlock()
	return true
}

// Deposit is its twin: the ledger's lock is released once the account is
// found.
func (l *Ledger) Deposit(id string, amount int64) bool {
	l.mu.Lock()
	a, ok := l.accounts[id]
	l.mu.Unlock()
	if !ok {
		return false
	}
	a.mu.Lock()
	a.balance += amount
	a.mu.Unlock()
	return true
}

// TotalHeld sums every account under the ledger's lock.
func (l *Ledger) TotalHeld() int64 {
	l.mu.Lock() // want `l.mu is held above the per-key lock a.mu \(taken at locktable.go:135, in a loop over every key\): one lock serialises the keys again`
	defer l.mu.Unlock()
	var sum int64
	for _, a := range l.accounts {
		a.mu.Lock()
		sum += a.balance
		a.mu.Unlock()
	}
	return sum
}

// snapshot copies the account map under the ledger's lock.
func (l *Ledger) snapshot() map[string]*account {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]*account, len(l.accounts))
	for id, a := range l.accounts {
		out[id] = a
	}
	return out
}

// Total is its twin: the accounts are copied out under the ledger's lock
// and summed after it is released.
func (l *Ledger) Total() int64 {
	var sum int64
	for _, a := range l.snapshot() {
		a.mu.Lock()
		sum += a.balance
		a.mu.Unlock()
	}
	return sum
}

// FreezeHeld locks every account for an audit, in map order, and keeps
// them all locked: two audits can take the same pair in opposite orders.
func (l *Ledger) FreezeHeld() (unfreeze func()) {
	accounts := l.snapshot()
	for _, a := range accounts {
		a.mu.Lock() // want `per-key lock a.mu taken in a range over a map while the locks of earlier elements are held: map order is random, two goroutines locking the same pair in opposite orders deadlock`
	}
	return func() {
		for _, a := range accounts {
			a.mu.Unlock()
		}
	}
}

// Freeze is its twin: the accounts are locked in sorted key order.
func (l *Ledger) Freeze() (unfreeze func()) {
	accounts := l.snapshot()
	ids := make([]string, 0, len(accounts))
	for id := range accounts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		accounts[id].mu.Lock()
	}
	return func() {
		for _, id := range ids {
			accounts[id].mu.Unlock()
		}
	}
}

var (
	fileLocksMu sync.Mutex
	fileLocks   = map[string]*sync.Mutex{}
)

// WithFileHeld serialises writers of one path, and holds the package's
// table lock while it waits for the path's.
func WithFileHeld(path string, write func()) {
	fileLocksMu.Lock() // want `fileLocksMu is held above the per-key lock l \(taken at locktable.go:212\): one lock serialises the keys again`
	defer fileLocksMu.Unlock()
	l, ok := fileLocks[path]
	if !ok {
		l = &sync.Mutex{}
		fileLocks[path] = l
	}
	l.Lock()
	defer l.Unlock()
	write()
}

// WithFile is its twin.
func WithFile(path string, write func()) {
	fileLocksMu.Lock()
	l, ok := fileLocks[path]
	if !ok {
		l = &sync.Mutex{}
		fileLocks[path] = l
	}
	fileLocksMu.Unlock()
	l.Lock()
	defer l.Unlock()
	write()
}

// Pool keeps idle connections by address. Its stats are a named child with
// their own lock, and each connection points back at its pool.
type Pool struct {
	mu    sync.Mutex
	conns map[string]*conn
	stats poolStats
}

type poolStats struct {
	mu   sync.Mutex
	hits int
}

type conn struct {
	mu   sync.Mutex
	pool *Pool
	busy bool
}

// Hit locks the stats, a named child, under the pool's lock. Not a
// finding: a child is not a key's lock.
func (p *Pool) Hit(addr string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.conns[addr]
	if ok {
		p.stats.mu.Lock()
		p.stats.hits++
		p.stats.mu.Unlock()
	}
	return ok
}

// Count reaches the pool's stats through a connection's back-pointer,
// under the pool's lock: one lock of the pool, not the connection's. Not a
// finding.
func (p *Pool) Count(addr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.conns[addr]; ok {
		c.pool.stats.mu.Lock()
		c.pool.stats.hits++
		c.pool.stats.mu.Unlock()
	}
}

// Leases attaches items to leases: an item is recorded in its lease's set
// (under the lease's lock, for the lease's readers) and in the index of
// owners (under the registry's lock), as one step.
type Leases struct {
	mu     sync.Mutex
	leases map[int64]*lease
	owner  map[string]int64
}

type lease struct {
	mu    sync.Mutex
	items map[string]bool
}

// Attach holds the registry's lock while the lease's is taken, because it
// updates the registry's index with the lease's set. Not a finding: the
// registry's lock guards its own state here.
func (r *Leases) Attach(id int64, item string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.leases[id]
	if l == nil {
		return false
	}
	l.mu.Lock()
	l.items[item] = true
	r.owner[item] = id
	l.mu.Unlock()
	return true
}

// ItemsHeld only reads the lease under the registry's lock.
func (r *Leases) ItemsHeld(id int64) int {
	r.mu.Lock() // want `r.mu is held above the per-key lock l.mu \(taken at locktable.go:316\): one lock serialises the keys again`
	defer r.mu.Unlock()
	l := r.leases[id]
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// Items is its twin.
func (r *Leases) Items(id int64) int {
	r.mu.Lock()
	l := r.leases[id]
	r.mu.Unlock()
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// Notifier sends alerts through one sender per receiver; mu guards the
// senders map, and each sender's lock its queue.
type Notifier struct {
	mu      sync.Mutex
	senders map[string]*sender
}

type sender struct {
	mu      sync.Mutex
	queue   []string
	stopped bool
}

// Reload replaces the senders with a new set and stops the old ones under
// the notifier's lock: the lock is the map's own guard, rebuilding it. Not
// a finding.
func (n *Notifier) Reload(receivers []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	next := make(map[string]*sender, len(receivers))
	for _, r := range receivers {
		next[r] = &sender{}
	}
	for _, s := range n.senders {
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
	}
	n.senders = next
}

// StopHeld stops every sender with the notifier's lock held: every send
// waits for the whole sweep.
func (n *Notifier) StopHeld() {
	n.mu.Lock() // want `n.mu is held above the per-key lock s.mu \(taken at locktable.go:371, in a loop over every key\): one lock serialises the keys again`
	defer n.mu.Unlock()
	for _, s := range n.senders {
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
	}
}

// Stop is its twin: the senders are copied out under the notifier's lock
// and stopped after it is released.
func (n *Notifier) Stop() {
	n.mu.Lock()
	senders := make([]*sender, 0, len(n.senders))
	for _, s := range n.senders {
		senders = append(senders, s)
	}
	n.mu.Unlock()
	for _, s := range senders {
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
	}
}

// Hub keeps its live connections by id. A connection is an object with its
// own locked methods, used by its own goroutines without the hub.
type Hub struct {
	mu    sync.Mutex
	conns map[uint64]*Conn
}

type Conn struct {
	mu     sync.Mutex
	out    [][]byte
	closed bool
}

// Send queues a message on the connection.
func (c *Conn) Send(msg []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.out = append(c.out, msg)
	}
}

// Pending counts each connection's queue under the hub's lock. Not a
// finding: the hub's lock above a connection's is a lock hierarchy between
// objects, not a guard above per-key locks.
func (h *Hub) Pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.conns {
		c.mu.Lock()
		n += len(c.out)
		c.mu.Unlock()
	}
	return n
}
