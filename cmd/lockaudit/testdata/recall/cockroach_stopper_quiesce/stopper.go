// Package cockroach_stopper_quiesce models cockroach#1055 (GoKer
// cockroach_1055; from memory): Stopper.Stop takes the stopper's mutex,
// marks it draining, waits for the running tasks, closes the stop channel
// and, still holding the mutex, waits on the WaitGroup of the workers.
// StartTask checks the draining flag without the mutex and then takes the
// mutex to register the task: a worker that passed the check just before
// Stop took the mutex blocks in StartTask, so it never sees the closed stop
// channel and never calls Done, and Stop waits for it for ever.
package cockroach_stopper_quiesce

import (
	"sync"
	"sync/atomic"
)

// Stopper coordinates the shutdown of workers and tasks. Buggy version.
type Stopper struct {
	stopper  chan struct{}
	stop     sync.WaitGroup
	mu       sync.Mutex
	drain    sync.WaitGroup
	draining int32
	tasks    int
}

// NewStopper returns a running stopper.
func NewStopper() *Stopper { return &Stopper{stopper: make(chan struct{})} }

// RunWorker runs f on a goroutine that Stop waits for.
func (s *Stopper) RunWorker(f func()) {
	s.stop.Add(1)
	go func() {
		defer s.stop.Done()
		f()
	}()
}

// ShouldStop is closed when the workers must exit.
func (s *Stopper) ShouldStop() <-chan struct{} { return s.stopper }

// StartTask registers a task unless the stopper is draining.
func (s *Stopper) StartTask() bool {
	if atomic.LoadInt32(&s.draining) == 0 {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.tasks++
		s.drain.Add(1)
		return true
	}
	return false
}

// FinishTask marks a task done.
func (s *Stopper) FinishTask() { s.drain.Done() }

// Stop drains the tasks and stops the workers.
func (s *Stopper) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	atomic.StoreInt32(&s.draining, 1)
	s.drain.Wait()
	close(s.stopper)
	s.stop.Wait() // BUG: a worker may be waiting for s.mu in StartTask
}

// StopperFixed is the fixed version: the draining flag is checked under the
// mutex, and the mutex is not held while Stop waits.
type StopperFixed struct {
	stopper  chan struct{}
	stop     sync.WaitGroup
	mu       sync.Mutex
	drain    sync.WaitGroup
	draining bool
	tasks    int
}

// NewStopperFixed returns a running stopper.
func NewStopperFixed() *StopperFixed { return &StopperFixed{stopper: make(chan struct{})} }

// RunWorker runs f on a goroutine that Stop waits for.
func (s *StopperFixed) RunWorker(f func()) {
	s.stop.Add(1)
	go func() {
		defer s.stop.Done()
		f()
	}()
}

// ShouldStop is closed when the workers must exit.
func (s *StopperFixed) ShouldStop() <-chan struct{} { return s.stopper }

// StartTask registers a task unless the stopper is draining.
func (s *StopperFixed) StartTask() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining {
		return false
	}
	s.tasks++
	s.drain.Add(1)
	return true
}

// FinishTask marks a task done.
func (s *StopperFixed) FinishTask() { s.drain.Done() }

// Stop drains the tasks and stops the workers.
func (s *StopperFixed) Stop() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.drain.Wait()
	close(s.stopper)
	s.stop.Wait()
}

// RangeScanner is a store worker that runs one task per tick until stopped.
func RangeScanner(s *Stopper, scan func()) {
	s.RunWorker(func() {
		for {
			select {
			case <-s.ShouldStop():
				return
			default:
			}
			if s.StartTask() {
				scan()
				s.FinishTask()
			}
		}
	})
}

// RangeScannerFixed is RangeScanner on the fixed stopper.
func RangeScannerFixed(s *StopperFixed, scan func()) {
	s.RunWorker(func() {
		for {
			select {
			case <-s.ShouldStop():
				return
			default:
			}
			if s.StartTask() {
				scan()
				s.FinishTask()
			}
		}
	})
}
