// Package containerd_shim_createexit reproduces containerd/containerd#9103 (fixed
// by PR #9104): "containerd-shim may deadlock when processing create requests".
//
// The runc shim's Create handler holds s.mu and, after starting the init process,
// calls the handleStarted closure returned by preStart; if init has already exited,
// the closure calls handleProcessExit, which locks s.mu again on the same goroutine.
// The fix tells the closure whether its caller holds s.mu and makes it use
// handleProcessExitNoLock.
package containerd_shim_createexit

import "sync"

type exit struct{ pid, status int }

type process interface {
	Pid() int
	SetExited(status int)
}

type initProcess struct{ pid, status int } // the runc init process

func (p *initProcess) Pid() int             { return p.pid }
func (p *initProcess) SetExited(status int) { p.status = status }

type container struct {
	id   string
	init *initProcess
}

type service struct {
	mu              sync.Mutex // guards containers
	lifecycleMu     sync.Mutex // guards running and exitSubscribers
	containers      map[string]*container
	running         map[int]*container
	exitSubscribers map[*map[int][]exit]struct{}
	exited          []string // guarded by mu
}

func (s *service) preStart() (handleStarted func(*container, process), cleanup func()) {
	exits := make(map[int][]exit)
	s.lifecycleMu.Lock()
	s.exitSubscribers[&exits] = struct{}{}
	s.lifecycleMu.Unlock()
	handleStarted = func(c *container, p process) {
		ees := s.collectExits(&exits, c, p)
		for _, ee := range ees {
			s.handleProcessExit(ee, c, p)
		}
	}
	cleanup = func() { s.collectExits(&exits, nil, nil) }
	return handleStarted, cleanup
}

// collectExits unsubscribes exits and returns those already reaped for p.
func (s *service) collectExits(exits *map[int][]exit, c *container, p process) []exit {
	s.lifecycleMu.Lock()
	defer s.lifecycleMu.Unlock()
	delete(s.exitSubscribers, exits)
	if p == nil {
		return nil
	}
	ees, exited := (*exits)[p.Pid()]
	if !exited {
		s.running[p.Pid()] = c
	}
	return ees
}

func (s *service) handleProcessExit(e exit, c *container, p process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handleProcessExitNoLock(e, c, p)
}

func (s *service) handleProcessExitNoLock(e exit, c *container, p process) {
	p.SetExited(e.status)
	s.exited = append(s.exited, c.id)
}

// Create serves the task Create request.
func (s *service) Create(id string, pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	handleStarted, cleanup := s.preStart()
	defer cleanup()
	c := &container{id: id, init: &initProcess{pid: pid}}
	s.containers[id] = c
	handleStarted(c, c.init)
}

// ---- fixed twin: handleStarted is told whether its caller holds s.mu ----

func (s *service) preStartFixed() (handleStarted func(*container, process, bool), cleanup func()) {
	exits := make(map[int][]exit)
	s.lifecycleMu.Lock()
	s.exitSubscribers[&exits] = struct{}{}
	s.lifecycleMu.Unlock()
	handleStarted = func(c *container, p process, muLocked bool) {
		ees := s.collectExits(&exits, c, p)
		if !muLocked {
			s.mu.Lock()
			defer s.mu.Unlock()
		}
		for _, ee := range ees {
			s.handleProcessExitNoLock(ee, c, p)
		}
	}
	cleanup = func() { s.collectExits(&exits, nil, nil) }
	return handleStarted, cleanup
}

func (s *service) CreateFixed(id string, pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	handleStarted, cleanup := s.preStartFixed()
	defer cleanup()
	c := &container{id: id, init: &initProcess{pid: pid}}
	s.containers[id] = c
	handleStarted(c, c.init, true)
}
