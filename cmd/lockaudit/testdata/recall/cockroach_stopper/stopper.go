// Package cockroach_stopper is modelled on a CockroachDB util/stop.Stopper
// deadlock: Stop marks the stopper draining and then, still holding its
// mutex, receives one "task finished" signal per running task from an
// unbuffered channel. A finishing task first takes the mutex to decrement
// the task count and only then signals, so it never reaches the send and
// Stop never gets its receive.
package cockroach_stopper

import (
	"errors"
	"sync"
)

// ErrDraining is returned for tasks started after Stop.
var ErrDraining = errors.New("stopper is draining")

// Stopper tracks async tasks so that shutdown can wait for them. Buggy version.
type Stopper struct {
	mu       sync.Mutex
	numTasks int
	draining bool
	taskDone chan struct{}
}

// NewStopper returns a running stopper.
func NewStopper() *Stopper { return &Stopper{taskDone: make(chan struct{})} }

// RunAsyncTask runs f in a goroutine unless the stopper is draining.
func (s *Stopper) RunAsyncTask(f func()) error {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return ErrDraining
	}
	s.numTasks++
	s.mu.Unlock()
	go func() {
		defer s.finishTask()
		f()
	}()
	return nil
}

func (s *Stopper) finishTask() {
	s.mu.Lock()
	s.numTasks--
	s.mu.Unlock()
	s.taskDone <- struct{}{}
}

// Stop waits for every running task.
func (s *Stopper) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draining = true
	for s.numTasks > 0 {
		<-s.taskDone // BUG: s.mu held; finishTask locks s.mu before it sends
	}
}

// StopperFixed is the fixed version: tasks are counted by a WaitGroup that
// Stop waits on after releasing the mutex.
type StopperFixed struct {
	mu       sync.Mutex
	draining bool
	tasks    sync.WaitGroup
}

// RunAsyncTask runs f in a goroutine unless the stopper is draining.
func (s *StopperFixed) RunAsyncTask(f func()) error {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return ErrDraining
	}
	s.tasks.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.tasks.Done()
		f()
	}()
	return nil
}

// Stop waits for every running task.
func (s *StopperFixed) Stop() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.tasks.Wait()
}
