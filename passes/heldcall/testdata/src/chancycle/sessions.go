package chancycle

import (
	"sync"
	"time"
)

// expiryKeeper tracks session deadlines on its own goroutine and calls
// expire, a func field its owner sets, for each session past its
// deadline (etcd#7492).
type expiryKeeper struct {
	deadlines map[string]time.Time
	added     chan string
	expire    func(id string)
}

func newExpiryKeeper(expire func(string)) *expiryKeeper {
	k := &expiryKeeper{deadlines: map[string]time.Time{}, added: make(chan string, 1), expire: expire}
	go k.run()
	return k
}

// run receives new sessions and, on each tick, expires the old ones
// through expire, which locks the session table.
func (k *expiryKeeper) run() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case id := <-k.added:
			k.deadlines[id] = time.Now().Add(time.Minute)
		case now := <-tick.C:
			for id, end := range k.deadlines {
				if now.After(end) {
					k.expire(id)
					delete(k.deadlines, id)
				}
			}
		}
	}
}

// track hands a session to the keeper.
func (k *expiryKeeper) track(id string) { k.added <- id }

// SessionTable issues sessions and drops them when they expire.
type SessionTable struct {
	mu       sync.Mutex
	sessions map[string]string
	keeper   *expiryKeeper
}

// NewSessionTable starts the table's keeper with a closure that drops an
// expired session under the table's lock.
func NewSessionTable() *SessionTable {
	t := &SessionTable{sessions: map[string]string{}}
	t.keeper = newExpiryKeeper(func(id string) {
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.sessions, id)
	})
	return t
}

// Open tracks the session while it holds the table's lock: when the
// keeper's one-slot buffer is full and the keeper is expiring a session,
// the keeper waits for t.mu and Open waits for the keeper.
func (t *SessionTable) Open(id, user string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sessions[id] = user
	t.keeper.track(id) // want `t.mu held across call of \(\*expiryKeeper\).track, which sends on a buffered channel: \(\*expiryKeeper\).track -> channel send, whose receiver \(sessions.go:\d+\) takes t.mu before it receives again \(locked at sessions.go:\d+, released by defer\)`
}

// OpenFixed tracks the session after it lets go of the table's lock.
func (t *SessionTable) OpenFixed(id, user string) {
	t.mu.Lock()
	t.sessions[id] = user
	t.mu.Unlock()
	t.keeper.track(id)
}

// counterKeeper's loop takes no lock of its owner's.
type counterKeeper struct {
	seen  map[string]int
	added chan string
}

func newCounterKeeper() *counterKeeper {
	k := &counterKeeper{seen: map[string]int{}, added: make(chan string, 16)}
	go func() {
		for id := range k.added {
			k.seen[id]++
		}
	}()
	return k
}

func (k *counterKeeper) track(id string) { k.added <- id }

// AuditTable sends to a keeper whose loop never needs the table's lock:
// the send waits at most for the loop to catch up.
type AuditTable struct {
	mu      sync.Mutex
	entries map[string]string
	keeper  *counterKeeper
}

// Record tracks the entry under the lock, which the loop never takes.
func (a *AuditTable) Record(id, what string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.entries[id] = what
	a.keeper.track(id)
}

// compactRequest carries its own reply channel, with room for the one
// reply.
type compactRequest struct {
	level int
	done  chan error
}

// Compactor runs the compactions its callers queue under its lock.
type Compactor struct {
	mu      sync.Mutex
	pending []*compactRequest
	running bool
}

// schedule answers each pending request once, with the lock held.
func (c *Compactor) schedule() {
	for _, req := range c.pending {
		req.done <- nil
	}
	c.pending = nil
}

// Compact queues a request and waits for its reply with the lock
// released: schedule's send, made under the lock, goes into the room the
// request's own channel has for it, and its receiver is this caller, not
// a loop that needs the lock.
func (c *Compactor) Compact(level int) error {
	req := &compactRequest{level: level, done: make(chan error, 1)}
	c.mu.Lock()
	c.pending = append(c.pending, req)
	c.schedule()
	c.mu.Unlock()
	return <-req.done
}

// connectionRequestQueueSize sizes the opener's queue for any backlog;
// only tests change it.
var connectionRequestQueueSize = 1000000

// ConnPool opens connections on a background opener, which takes the
// pool's lock to record each one.
type ConnPool struct {
	mu       sync.Mutex
	open     int
	pending  int
	openerCh chan struct{}
}

// NewConnPool starts the opener.
func NewConnPool() *ConnPool {
	p := &ConnPool{openerCh: make(chan struct{}, connectionRequestQueueSize)}
	go p.opener()
	return p
}

func (p *ConnPool) opener() {
	for range p.openerCh {
		p.mu.Lock()
		p.open++
		p.mu.Unlock()
	}
}

// maybeOpen asks the opener for the connections still wanted; callers
// hold p.mu.
func (p *ConnPool) maybeOpen() {
	for ; p.pending > 0; p.pending-- {
		p.openerCh <- struct{}{}
	}
}

// Get asks for a connection under the lock: the queue has room for any
// backlog, so the send does not wait for the opener.
func (p *ConnPool) Get() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending++
	p.maybeOpen()
}

// Release asks directly, under the lock, as well.
func (p *ConnPool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.open--
	p.openerCh <- struct{}{}
}
