// Package cockroach_schedwg is modelled on a CockroachDB raft scheduler /
// intent resolver shutdown deadlock: Stop sets the stopped flag and wakes
// the workers under the scheduler's mutex, then, still holding it, calls a
// helper that waits on the workers' WaitGroup. A woken worker must
// reacquire the mutex (in sync.Cond.Wait, and again to record what it
// processed) before it can exit, so the join never completes.
package cockroach_schedwg

import "sync"

// Scheduler processes range IDs on a fixed pool of workers. Buggy version.
type Scheduler struct {
	mu        sync.Mutex
	cond      *sync.Cond
	queue     []int64
	stopped   bool
	processed map[int64]int
	wg        sync.WaitGroup
	process   func(rangeID int64)
}

// NewScheduler starts n workers.
func NewScheduler(n int, process func(int64)) *Scheduler {
	s := &Scheduler{processed: map[int64]int{}, process: process}
	s.cond = sync.NewCond(&s.mu)
	for i := 0; i < n; i++ {
		s.wg.Add(1)
		go s.worker()
	}
	return s
}

// Enqueue schedules rangeID.
func (s *Scheduler) Enqueue(rangeID int64) {
	s.mu.Lock()
	s.queue = append(s.queue, rangeID)
	s.mu.Unlock()
	s.cond.Signal()
}

func (s *Scheduler) worker() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.stopped {
			s.cond.Wait()
		}
		if s.stopped {
			s.mu.Unlock()
			return
		}
		id := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		s.process(id)
		s.recordProcessed(id)
	}
}

func (s *Scheduler) recordProcessed(id int64) {
	s.mu.Lock()
	s.processed[id]++
	s.mu.Unlock()
}

// Stop stops the workers and waits for them.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	s.cond.Broadcast()
	s.waitForWorkers() // BUG: s.mu held; the workers need s.mu to exit
}

func (s *Scheduler) waitForWorkers() {
	s.wg.Wait()
}

// SchedulerFixed is the fixed version: Stop releases the mutex before it
// waits for the workers.
type SchedulerFixed struct {
	mu        sync.Mutex
	cond      *sync.Cond
	queue     []int64
	stopped   bool
	processed map[int64]int
	wg        sync.WaitGroup
	process   func(rangeID int64)
}

// NewSchedulerFixed starts n workers.
func NewSchedulerFixed(n int, process func(int64)) *SchedulerFixed {
	s := &SchedulerFixed{processed: map[int64]int{}, process: process}
	s.cond = sync.NewCond(&s.mu)
	for i := 0; i < n; i++ {
		s.wg.Add(1)
		go s.worker()
	}
	return s
}

// Enqueue schedules rangeID.
func (s *SchedulerFixed) Enqueue(rangeID int64) {
	s.mu.Lock()
	s.queue = append(s.queue, rangeID)
	s.mu.Unlock()
	s.cond.Signal()
}

func (s *SchedulerFixed) worker() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.stopped {
			s.cond.Wait()
		}
		if s.stopped {
			s.mu.Unlock()
			return
		}
		id := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		s.process(id)
		s.recordProcessed(id)
	}
}

func (s *SchedulerFixed) recordProcessed(id int64) {
	s.mu.Lock()
	s.processed[id]++
	s.mu.Unlock()
}

// Stop stops the workers and waits for them.
func (s *SchedulerFixed) Stop() {
	s.mu.Lock()
	s.stopped = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.waitForWorkers()
}

func (s *SchedulerFixed) waitForWorkers() {
	s.wg.Wait()
}
