package leaks

import (
	"sync"
	"time"
)

// A metrics pipeline's lifecycle closes admission for a collection and
// hands the collection its control lock when it reports true; the
// collection's Complete releases it.

type collectionLifecycle struct {
	control sync.Mutex
	retired bool
	points  []float64
}

type collection struct {
	lifecycle *collectionLifecycle
	at        time.Time
	points    []float64
}

// Complete releases the lifecycle's control lock.
func (c collection) Complete() { c.lifecycle.control.Unlock() }

func (c collection) empty() bool { return len(c.points) == 0 }

func (l *collectionLifecycle) begin(at time.Time) (collection, bool) {
	if l.retired {
		return collection{}, false
	}
	return collection{lifecycle: l, at: at, points: l.points}, true
}

// Begin closes admission for a collection; when it reports true, the
// collection it gives owns the control lock.
func (l *collectionLifecycle) Begin(at time.Time) (collection, bool) {
	l.control.Lock()
	c, ok := l.begin(at)
	if !ok {
		l.control.Unlock()
	}
	return c, ok
}

// BeginNonEmpty is its twin with the wrong test: it releases the lock for
// an empty collection, and its result says nothing of it.
func (l *collectionLifecycle) BeginNonEmpty(at time.Time) (collection, bool) {
	l.control.Lock()
	c, ok := l.begin(at)
	if c.empty() {
		l.control.Unlock()
	}
	return c, ok // want `return with l.control held, but other paths of BeginNonEmpty release it`
}
