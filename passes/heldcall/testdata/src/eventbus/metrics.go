package eventbus

import (
	"sync"
	"time"
)

// Recorder hands samples to a loop it starts through a method value,
// with the hook the loop runs after each sample and one it only keeps.
// The receiver is bound first: the loop runs export, which waits.
type Recorder struct {
	mu      sync.Mutex
	samples chan float64
	count   int
}

func exportSample() { time.Sleep(10 * time.Millisecond) }
func noteSample()   {}
func (r *Recorder) run(each, kept func()) {
	for range r.samples {
		each()
	}
}

// NewRecorder starts the loop with the slow hook for each sample.
func NewRecorder() *Recorder {
	r := &Recorder{samples: make(chan float64)}
	start := r.run
	go start(exportSample, noteSample)
	return r
}

// Observe hands the sample over with the lock held: the loop takes the
// next one only once it has exported this one.
func (r *Recorder) Observe(v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count++
	r.samples <- v // want `r.mu held across channel send \(locked at metrics.go:\d+, released by defer\)`
}

// QuietRecorder starts the same loop with the quick hook for each sample:
// a hand-off to it waits for no export.
type QuietRecorder struct {
	mu      sync.Mutex
	samples chan float64
	count   int
}

func (r *QuietRecorder) run(each, kept func()) {
	for range r.samples {
		each()
	}
}

// NewQuietRecorder starts the loop with the quick hook for each sample.
func NewQuietRecorder() *QuietRecorder {
	r := &QuietRecorder{samples: make(chan float64)}
	start := r.run
	go start(noteSample, exportSample)
	return r
}

// Observe hands the sample over with the lock held.
func (r *QuietRecorder) Observe(v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count++
	r.samples <- v
}
