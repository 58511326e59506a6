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
