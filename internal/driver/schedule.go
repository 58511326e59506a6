package driver

import (
	"os"
	"sync"
)

// bigUnitBytes is the Go source (with tests) from which a unit is big: its
// syntax, types and SSA take a gigabyte or more at 400k lines. Two big
// units never run at once, so that a tree with a few huge packages peaks
// near its largest one rather than at the sum of the largest GOMAXPROCS.
const bigUnitBytes = 4 << 20

// A jobQueue hands out the jobs whose providers are done, in the order
// they became ready, holding back a big job while another runs.
type jobQueue struct {
	mu         sync.Mutex
	cond       sync.Cond
	ready      []*job
	remaining  int
	bigRunning bool
}

func newJobQueue(jobs []*job) *jobQueue {
	q := &jobQueue{remaining: len(jobs)}
	q.cond.L = &q.mu
	for _, j := range jobs {
		j.big = sourceBytes(j.u) >= bigUnitBytes
		if j.waiting == 0 {
			q.ready = append(q.ready, j)
		}
	}
	return q
}

// next returns the next job to run, waiting for one if need be, or nil
// when every job is done.
func (q *jobQueue) next() *job {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.remaining > 0 {
		for i, j := range q.ready {
			if j.big && q.bigRunning {
				continue
			}
			q.ready = append(q.ready[:i], q.ready[i+1:]...)
			q.bigRunning = q.bigRunning || j.big
			return j
		}
		q.cond.Wait()
	}
	return nil
}

// done marks j done: record (called with the queue's lock held) files its
// result, and its dependents whose providers are all done become ready.
func (q *jobQueue) done(j *job, record func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	record()
	if j.big {
		q.bigRunning = false
	}
	for _, d := range j.dependents {
		if j.failed {
			d.failed = true
		}
		if d.waiting--; d.waiting == 0 {
			q.ready = append(q.ready, d)
		}
	}
	q.remaining--
	q.cond.Broadcast()
}

// sourceBytes returns the size of u's Go files.
func sourceBytes(u *unit) int64 {
	var n int64
	for _, name := range u.CompiledGoFiles {
		if info, err := os.Stat(absIn(u.Dir, name)); err == nil {
			n += info.Size()
		}
	}
	return n
}
