// Models kubernetes#58107 (GoKer kubernetes_58107): the worker closure read-locks rq.workerLock and then blocks in queue.Get (RateLimitingInterface, a sync.Cond wait in the package's queue); Sync's pending write lock then stops the other queue's workers from getting the read lock (RLock held across a cond wait reached through an interface, in a closure returned by a method).
package k8s_quota_workerlock

import (
	"sync"
	"time"
)

// RateLimitingInterface is a work queue.
type RateLimitingInterface interface {
	Add(key string)
	Get() (key string, shutdown bool)
	Done(key string)
}

// workQueue is a FIFO that blocks Get until an item is added.
type workQueue struct {
	cond         *sync.Cond
	items        []string
	shuttingDown bool
}

func newWorkQueue() *workQueue { return &workQueue{cond: sync.NewCond(&sync.Mutex{})} }

func (q *workQueue) Add(key string) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	q.items = append(q.items, key)
	q.cond.Signal()
}

func (q *workQueue) Get() (string, bool) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for len(q.items) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return "", true
	}
	key := q.items[0]
	q.items = q.items[1:]
	return key, false
}

func (q *workQueue) Done(key string) {}

// ResourceQuotaController recomputes quota usage. Buggy version.
type ResourceQuotaController struct {
	workerLock        sync.RWMutex
	queue             RateLimitingInterface
	missingUsageQueue RateLimitingInterface
	syncHandler       func(key string) error
	monitors          map[string]bool
	usageMu           sync.Mutex
	usage             map[string]int
}

// NewResourceQuotaController uses the package's work queues.
func NewResourceQuotaController() *ResourceQuotaController {
	rq := &ResourceQuotaController{queue: newWorkQueue(), missingUsageQueue: newWorkQueue(), monitors: map[string]bool{}, usage: map[string]int{}}
	rq.syncHandler = rq.syncResourceQuotaFromKey
	return rq
}

func (rq *ResourceQuotaController) syncResourceQuotaFromKey(key string) error {
	rq.usageMu.Lock()
	rq.usage[key]++
	rq.usageMu.Unlock()
	return nil
}

func (rq *ResourceQuotaController) worker(queue RateLimitingInterface) func() {
	workFunc := func() bool {
		rq.workerLock.RLock()
		defer rq.workerLock.RUnlock()
		key, quit := queue.Get() // BUG: blocks in cond.Wait with workerLock read-held
		if quit {
			return true
		}
		defer queue.Done(key)
		_ = rq.syncHandler(key)
		return false
	}
	return func() {
		for {
			if quit := workFunc(); quit {
				return
			}
		}
	}
}

// Run starts the workers.
func (rq *ResourceQuotaController) Run(workers int) {
	for i := 0; i < workers; i++ {
		go rq.worker(rq.queue)()
		go rq.worker(rq.missingUsageQueue)()
	}
}

// Sync periodically resyncs the monitors with all workers paused.
func (rq *ResourceQuotaController) Sync(resources []string, period time.Duration, stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case <-time.After(period):
		}
		rq.workerLock.Lock()
		for _, r := range resources {
			rq.monitors[r] = true
		}
		rq.workerLock.Unlock()
	}
}

// ResourceQuotaControllerFixed is the fixed version: the worker takes the
// item first and holds the read lock only while it processes it.
type ResourceQuotaControllerFixed struct {
	workerLock        sync.RWMutex
	queue             RateLimitingInterface
	missingUsageQueue RateLimitingInterface
	syncHandler       func(key string) error
	monitors          map[string]bool
	usageMu           sync.Mutex
	usage             map[string]int
}

// NewResourceQuotaControllerFixed uses the package's work queues.
func NewResourceQuotaControllerFixed() *ResourceQuotaControllerFixed {
	rq := &ResourceQuotaControllerFixed{queue: newWorkQueue(), missingUsageQueue: newWorkQueue(), monitors: map[string]bool{}, usage: map[string]int{}}
	rq.syncHandler = rq.syncResourceQuotaFromKey
	return rq
}

func (rq *ResourceQuotaControllerFixed) syncResourceQuotaFromKey(key string) error {
	rq.usageMu.Lock()
	rq.usage[key]++
	rq.usageMu.Unlock()
	return nil
}

func (rq *ResourceQuotaControllerFixed) worker(queue RateLimitingInterface) func() {
	workFunc := func() bool {
		key, quit := queue.Get()
		if quit {
			return true
		}
		defer queue.Done(key)
		rq.workerLock.RLock()
		defer rq.workerLock.RUnlock()
		_ = rq.syncHandler(key)
		return false
	}
	return func() {
		for {
			if quit := workFunc(); quit {
				return
			}
		}
	}
}

// Run starts the workers.
func (rq *ResourceQuotaControllerFixed) Run(workers int) {
	for i := 0; i < workers; i++ {
		go rq.worker(rq.queue)()
		go rq.worker(rq.missingUsageQueue)()
	}
}

// Sync periodically resyncs the monitors with all workers paused.
func (rq *ResourceQuotaControllerFixed) Sync(resources []string, period time.Duration, stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case <-time.After(period):
		}
		rq.workerLock.Lock()
		for _, r := range resources {
			rq.monitors[r] = true
		}
		rq.workerLock.Unlock()
	}
}
