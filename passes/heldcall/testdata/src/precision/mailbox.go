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
