// want package:"6 lock-order edges"

// Package returnedfuncs holds the cases of a closure a helper makes and
// returns, called later by its caller: the locks it takes through what it
// captured from the helper's parameters are the caller's arguments' locks.
// A shim's Create holds the service lock and calls the exit handler that
// preStart returned, which takes the same lock (containerd#9103).
package returnedfuncs

import "sync"

type exit struct{ pid, status int }

type container struct {
	id     string
	pid    int
	status int
}

type service struct {
	mu          sync.Mutex // guards containers and exited
	lifecycleMu sync.Mutex // guards subscribers
	containers  map[string]*container
	exited      []string
	subscribers map[*[]exit]struct{}
}

// preStart subscribes to exits and returns the handler that settles the
// exits seen while the process started.
func (s *service) preStart() (handleStarted func(c *container, muHeld bool), cleanup func()) {
	exits := []exit{}
	s.lifecycleMu.Lock()
	s.subscribers[&exits] = struct{}{}
	s.lifecycleMu.Unlock()
	handleStarted = func(c *container, muHeld bool) {
		s.lifecycleMu.Lock()
		delete(s.subscribers, &exits)
		s.lifecycleMu.Unlock()
		for _, e := range exits {
			if e.pid != c.pid {
				continue
			}
			if !muHeld {
				s.mu.Lock()
			}
			c.status = e.status
			s.exited = append(s.exited, c.id)
			if !muHeld {
				s.mu.Unlock()
			}
		}
	}
	cleanup = func() {
		s.lifecycleMu.Lock()
		delete(s.subscribers, &exits)
		s.lifecycleMu.Unlock()
	}
	return handleStarted, cleanup
}

// Create calls the handler under its own lock, telling it the lock is not
// held: the handler locks it again.
func (s *service) Create(id string, pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	handleStarted, cleanup := s.preStart()
	defer cleanup()
	c := &container{id: id, pid: pid}
	s.containers[id] = c
	handleStarted(c, false) // want `s.mu locked again through call of func value preStart\(\) \(\(\*service\).preStart.func1\) while held`
}

// CreateHeld is its twin: the handler is told the lock is held.
func (s *service) CreateHeld(id string, pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	handleStarted, cleanup := s.preStart()
	defer cleanup()
	c := &container{id: id, pid: pid}
	s.containers[id] = c
	handleStarted(c, true)
}
