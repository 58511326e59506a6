package idioms

import (
	"sync"
	"time"
)

// list is the ordering a cache keeps; lruList is the package's only one.
type list interface {
	PushFront(key string)
	Len() int
}

type lruList struct{ keys []string }

func (l *lruList) PushFront(key string) { l.keys = append([]string{key}, l.keys...) }
func (l *lruList) Len() int             { return len(l.keys) }

// Window counts events in a sliding window. Its clock and its list are
// fields the package itself sets: calling them under the lock runs known,
// non-blocking code.
type Window struct {
	mu     sync.Mutex
	now    func() time.Time
	order  list
	start  time.Time
	events int

	// OnRoll is set by users: foreign code.
	OnRoll func(events int)
	// sink comes from the constructor's caller: unknown code.
	sink list
}

func NewWindow(sink list) *Window {
	return &Window{now: time.Now, order: &lruList{}, sink: sink}
}

// Record reads the package's clock and list under the lock: not a finding.
func (w *Window) Record(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.now().Sub(w.start) > time.Minute {
		w.start, w.events = w.now(), 0
	}
	w.events++
	w.order.PushFront(key)
}

// RollHeld calls the user's hook under the lock.
func (w *Window) RollHeld() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.OnRoll(w.events) // want `w.mu held across call of func value w.OnRoll \(locked at fields.go:52, released by defer\)`
	w.events = 0
}

// Roll is its twin.
func (w *Window) Roll() {
	w.mu.Lock()
	n := w.events
	w.events = 0
	hook := w.OnRoll
	w.mu.Unlock()
	hook(n)
}

// ForwardHeld pushes into the caller-supplied sink under the lock.
func (w *Window) ForwardHeld(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sink.PushFront(key) // want `w.mu held across call of interface method list.PushFront \(locked at fields.go:70, released by defer\) \(plausible: the package's exported API accepts any list\)`
}

// Forward is its twin.
func (w *Window) Forward(key string) {
	w.mu.Lock()
	sink := w.sink
	w.mu.Unlock()
	sink.PushFront(key)
}
