package callbacks

import "sync"

// EventQueue queues objects, each passed through the user's transform on
// the way in unless it is already in the queue's form.
type EventQueue struct {
	mu        sync.Mutex
	items     []string
	transform func(obj string) (string, error)
}

// NewEventQueue takes the user's transform.
func NewEventQueue(transform func(obj string) (string, error)) *EventQueue {
	return &EventQueue{transform: transform}
}

// addLocked queues obj; callers hold q.mu.
func (q *EventQueue) addLocked(obj string, skipTransform bool) {
	if !skipTransform {
		out, err := q.transform(obj)
		if err != nil {
			return
		}
		obj = out
	}
	q.items = append(q.items, obj)
}

// Add runs the user's transform under the queue's lock.
func (q *EventQueue) Add(obj string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addLocked(obj, false) // want `q.mu held across call of \(\*EventQueue\).addLocked, which calls func value q.transform \(\(\*EventQueue\).addLocked -> func value q.transform\) \(locked at transform.go:\d+, released by defer\)`
}

// Resync queues the items again, already transformed: the transform
// cannot run.
func (q *EventQueue) Resync() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, obj := range q.items {
		q.addLocked(obj, true)
	}
}

// Index keeps the user's index function's values for each object.
type Index struct {
	mu     sync.Mutex
	values map[string][]string
	index  func(obj string) ([]string, error)
}

// reindexLocked indexes the old object and the new one, whichever are
// given: the index function runs if either is.
func (x *Index) reindexLocked(oldObj, newObj *string) {
	if oldObj != nil {
		x.index(*oldObj) //nolint:errcheck
	}
	if newObj != nil {
		vals, _ := x.index(*newObj)
		x.values[*newObj] = vals
	}
}

// Add indexes a new object, with no old one, under the lock: the second
// branch runs the user's function.
func (x *Index) Add(obj string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.reindexLocked(nil, &obj) // want `x.mu held across call of \(\*Index\).reindexLocked, which calls func value x.index \(\(\*Index\).reindexLocked -> func value x.index\) \(locked at transform.go:\d+, released by defer\)`
}

// NewIndex takes the user's index function.
func NewIndex(index func(obj string) ([]string, error)) *Index {
	return &Index{values: map[string][]string{}, index: index}
}
