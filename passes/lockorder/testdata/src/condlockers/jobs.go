package condlockers

import "sync"

// JobQueue hands jobs to workers that wait on a Cond made on its mutex.
type JobQueue struct {
	mu       sync.Mutex
	nonEmpty *sync.Cond
	jobs     []string
	stats    map[string]int
}

// NewJobQueue ties nonEmpty to mu.
func NewJobQueue() *JobQueue {
	q := &JobQueue{stats: map[string]int{}}
	q.nonEmpty = sync.NewCond(&q.mu)
	return q
}

// Push queues a job.
func (q *JobQueue) Push(job string) {
	q.mu.Lock()
	q.jobs = append(q.jobs, job)
	q.mu.Unlock()
	q.nonEmpty.Signal()
}

// record counts a job under the queue's lock.
func (q *JobQueue) record(job string) {
	q.mu.Lock()
	q.stats[job]++
	q.mu.Unlock()
}

// Pop waits through nonEmpty.L, which is mu, and locks mu again in record.
func (q *JobQueue) Pop() string {
	q.nonEmpty.L.Lock()
	defer q.nonEmpty.L.Unlock()
	for len(q.jobs) == 0 {
		q.nonEmpty.Wait()
	}
	job := q.jobs[0]
	q.jobs = q.jobs[1:]
	q.record(job) // want `q.mu locked again through call of \(\*JobQueue\).record while held \(locked at jobs.go:37\)`
	return job
}

// PopFixed records the job after it lets go of nonEmpty.L.
func (q *JobQueue) PopFixed() string {
	q.nonEmpty.L.Lock()
	for len(q.jobs) == 0 {
		q.nonEmpty.Wait()
	}
	job := q.jobs[0]
	q.jobs = q.jobs[1:]
	q.nonEmpty.L.Unlock()
	q.record(job)
	return job
}

// Drain takes nonEmpty.L and lets it go with mu's own Unlock: one lock.
func (q *JobQueue) Drain() []string {
	q.nonEmpty.L.Lock()
	jobs := q.jobs
	q.jobs = nil
	q.mu.Unlock()
	q.record("drain")
	return jobs
}
