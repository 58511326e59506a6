// Package knative_doublelock_defer is modelled on a Knative serving
// activator throttler self-deadlock through defer order: UpdateCapacity
// defers the unlock first and the metrics report second, so the report
// runs first, still under the lock, and the report reads the capacity
// through Capacity(), which takes the same lock.
package knative_doublelock_defer

import "sync"

// Throttler limits in-flight requests to a revision. Buggy version.
type Throttler struct {
	mu       sync.Mutex
	capacity int
	inflight int
	reported []int
}

// Capacity returns the current capacity.
func (t *Throttler) Capacity() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.capacity
}

func (t *Throttler) reportCapacity() {
	c := t.Capacity()
	t.reported = append(t.reported, c)
}

// UpdateCapacity sets the capacity from the number of ready endpoints.
func (t *Throttler) UpdateCapacity(endpoints, perEndpoint int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.reportCapacity() // BUG: runs before the deferred Unlock and locks t.mu
	t.capacity = endpoints * perEndpoint
}

// ThrottlerFixed is the fixed version: the report runs after the unlock.
type ThrottlerFixed struct {
	mu       sync.Mutex
	capacity int
	inflight int
	reported []int
}

// Capacity returns the current capacity.
func (t *ThrottlerFixed) Capacity() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.capacity
}

func (t *ThrottlerFixed) reportCapacity() {
	c := t.Capacity()
	t.mu.Lock()
	t.reported = append(t.reported, c)
	t.mu.Unlock()
}

// UpdateCapacity sets the capacity from the number of ready endpoints.
func (t *ThrottlerFixed) UpdateCapacity(endpoints, perEndpoint int) {
	defer t.reportCapacity()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.capacity = endpoints * perEndpoint
}
