package eventbus

import "sync"

// Tally sums what it is sent on a loop that, on its way to a crash, marks
// the tally failed under the tally's lock: a sender holding that lock
// stops the crash, and the loop receives no more.
type Tally struct {
	mu     sync.Mutex
	in     chan int
	sum    int
	seen   int
	failed bool
}

// NewTally starts the loop.
func NewTally() *Tally {
	t := &Tally{in: make(chan int)}
	go t.run()
	return t
}

func (t *Tally) run() {
	defer t.onPanic()
	for v := range t.in {
		if v < 0 {
			panic("negative sample")
		}
		t.sum += v
	}
}

func (t *Tally) onPanic() {
	if r := recover(); r != nil {
		t.setFailed()
		panic(r)
	}
}

func (t *Tally) setFailed() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
}

// AddHeld counts and sends with the lock held.
func (t *Tally) AddHeld(v int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen++
	t.in <- v // want `t.mu held across channel send, whose receiver \(tally.go:\d+\) takes t.mu before it receives again \(locked at tally.go:\d+, released by defer\)`
}

// Add is its twin: it counts under the lock and sends after.
func (t *Tally) Add(v int) {
	t.mu.Lock()
	t.seen++
	t.mu.Unlock()
	t.in <- v
}
