package workerpool

import (
	"sync"
	"time"
)

type queue struct {
	mu       sync.Mutex
	jobs     []func()
	nonEmpty *sync.Cond
}

func NewQueue() *queue { // the pool's users submit jobs to it
	q := &queue{}
	q.nonEmpty = sync.NewCond(&q.mu)
	return q
}

func (q *queue) pop() func() {
	for len(q.jobs) == 0 {
		q.nonEmpty.Wait()
	}
	j := q.jobs[0]
	q.jobs = q.jobs[1:]
	return j
}

func (q *queue) heldNamedGuard() {
	for {
		q.mu.Lock()
		job := q.pop()
		job() // want `q.mu held across call of func value job \(locked at pool.go:31\)`
		q.mu.Unlock()
	}
}

func (q *queue) releasedUnlock() {
	for {
		q.mu.Lock()
		job := q.pop()
		q.mu.Unlock()
		job()
	}
}

func (q *queue) heldDefer() {
	q.mu.Lock()
	defer q.mu.Unlock()
	job := q.pop()
	job() // want `q.mu held across call of func value job \(locked at pool.go:48, released by defer\)`
}

func (q *queue) releasedScoped() {
	job := func() func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		return q.pop()
	}()
	job()
}

func (q *queue) sleepy() {
	q.mu.Lock()
	time.Sleep(time.Millisecond) // want `q.mu held across call of time.Sleep`
	q.mu.Unlock()
	time.Sleep(time.Millisecond)
}

func (q *queue) inPlace() {
	q.mu.Lock()
	func() {
		time.Sleep(time.Millisecond) // want `q.mu held across call of time.Sleep`
	}()
	q.mu.Unlock()
}

func (q *queue) lockWrapper() { q.mu.Lock() }

func (q *queue) viaWrapper(ch chan int) {
	q.lockWrapper()
	ch <- 1 // want `q.mu held across channel send`
	q.mu.Unlock()
	ch <- 2
}

func (q *queue) flush() { time.Sleep(time.Millisecond) }

func (q *queue) transitive() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.flush() // want `q.mu held across call of \(\*queue\).flush, which blocks: \(\*queue\).flush -> time.Sleep`
}

// Submit queues a job from the pool's user: the jobs the workers run are
// the user's code.
func (q *queue) Submit(job func()) {
	q.mu.Lock()
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
	q.nonEmpty.Signal()
}
