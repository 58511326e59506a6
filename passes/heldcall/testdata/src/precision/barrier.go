package precision

import "sync"

// A job queue whose consumers are restarted under the queue's lock. The
// restart waits only until each new consumer has begun.

type JobQueue struct {
	mu      sync.Mutex
	workers int
	items   chan func()
	stopWG  sync.WaitGroup
}

// Resize sets the number of consumers under the lock. Not a finding: it
// waits for the consumers to start, not for their jobs.
func (q *JobQueue) Resize(n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.workers = n
	q.startConsumers(n)
}

func (q *JobQueue) startConsumers(n int) {
	var started sync.WaitGroup
	for range n {
		q.stopWG.Add(1)
		started.Add(1)
		go func() {
			started.Done()
			defer q.stopWG.Done()
			for job := range q.items {
				job()
			}
		}()
	}
	started.Wait()
}

// DrainHeld runs one round of jobs on new goroutines and waits, under the
// lock, for them to finish.
func (q *JobQueue) DrainHeld(n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var finished sync.WaitGroup
	for range n {
		finished.Add(1)
		go func() {
			defer finished.Done()
			if job, ok := <-q.items; ok {
				job()
			}
		}()
	}
	finished.Wait() // want `q.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at barrier.go:\d+, released by defer\)`
}
