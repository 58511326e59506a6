package precision

import "sync"

// A health server that keeps, for every watcher, a mailbox of the latest
// status: a channel of capacity one, emptied before the newest status is
// put in, all under the server's lock. The watcher's own goroutine
// receives. Each positive is next to its silent twin.

type ServingStatus int

type healthServer struct {
	mu       sync.Mutex
	statuses map[string]ServingStatus
	watchers map[string][]chan ServingStatus
	audit    chan string
}

// NewHealthServer returns a server with no watchers.
func NewHealthServer() *healthServer {
	return &healthServer{statuses: map[string]ServingStatus{}, watchers: map[string][]chan ServingStatus{}, audit: make(chan string)}
}

// Watch registers a mailbox for service.
func (s *healthServer) Watch(service string) <-chan ServingStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan ServingStatus, 1)
	s.watchers[service] = append(s.watchers[service], ch)
	return ch
}

// SetStatus replaces every watcher's pending status with the new one.
// Not a finding: each send follows the drain of its own mailbox.
func (s *healthServer) SetStatus(service string, st ServingStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses[service] = st
	for _, ch := range s.watchers[service] {
		select {
		case <-ch:
		default:
		}
		ch <- st
	}
}

// SetStatusQueued queues every status without draining: a watcher that
// is behind makes the send wait, with the lock held.
func (s *healthServer) SetStatusQueued(service string, st ServingStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses[service] = st
	for _, ch := range s.watchers[service] {
		ch <- st // want `s.mu held across channel send \(locked at mailbox.go:\d+, released by defer\)`
	}
}

// SetStatusAudited drains the mailbox, but also reports to the auditor's
// unbuffered channel, which nothing drains first.
func (s *healthServer) SetStatusAudited(service string, st ServingStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.watchers[service] {
		select {
		case <-ch:
		default:
		}
		ch <- st
		s.audit <- service // want `s.mu held across channel send \(locked at mailbox.go:\d+, released by defer\)`
	}
}

// Audit is the auditor's side.
func (s *healthServer) Audit() <-chan string { return s.audit }

// A balancer that hands the newest address list to its watcher through a
// mailbox field: its only sender empties the mailbox before it puts the
// list in, under the balancer's lock, so the send never waits, though the
// watcher takes that lock (through down) between two receives.
type roundRobin struct {
	mu     sync.Mutex
	addrs  []string
	addrCh chan []string
}

// NewRoundRobin returns a balancer whose mailbox holds one list.
func NewRoundRobin() *roundRobin { return &roundRobin{addrCh: make(chan []string, 1)} }

// Update replaces the pending list. Not a finding.
func (rr *roundRobin) Update(addrs []string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.addrs = addrs
	select {
	case <-rr.addrCh:
	default:
	}
	rr.addrCh <- addrs
}

func (rr *roundRobin) down(addr string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for i, a := range rr.addrs {
		if a == addr {
			rr.addrs = append(rr.addrs[:i], rr.addrs[i+1:]...)
			break
		}
	}
}

// Watch is the watcher: it tears down an address, taking rr.mu, between
// two lists.
func (rr *roundRobin) Watch() {
	for addrs := range rr.addrCh {
		if len(addrs) > 0 {
			rr.down(addrs[0])
		}
	}
}

// queueBalancer is roundRobin's twin without the drain: a second update
// while the watcher waits for qb.mu in down fills the slot and waits,
// holding qb.mu.
type queueBalancer struct {
	mu     sync.Mutex
	addrs  []string
	addrCh chan []string
}

// NewQueueBalancer returns a balancer with a one-list queue.
func NewQueueBalancer() *queueBalancer { return &queueBalancer{addrCh: make(chan []string, 1)} }

// Update queues the list.
func (qb *queueBalancer) Update(addrs []string) {
	qb.mu.Lock()
	defer qb.mu.Unlock()
	qb.addrs = addrs
	qb.addrCh <- addrs // want `qb.mu held across channel send, whose receiver \(mailbox.go:\d+\) takes qb.mu before it receives again \(locked at mailbox.go:\d+, released by defer\)`
}

func (qb *queueBalancer) down(addr string) {
	qb.mu.Lock()
	defer qb.mu.Unlock()
	qb.addrs = qb.addrs[:0]
	_ = addr
}

// Watch is the watcher.
func (qb *queueBalancer) Watch() {
	for addrs := range qb.addrCh {
		if len(addrs) > 0 {
			qb.down(addrs[0])
		}
	}
}
