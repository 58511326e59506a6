// Package idioms holds the everyday shapes of server code that look like
// findings but are not, each next to the variant that is one.
package idioms

import (
	"context"
	"io"
	"maps"
	"slices"
	"sync"
)

// Job runs a request with a deadline; its cancel function is stored.
type Job struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	stop   func()
	onStop func()
}

// Stop cancels the job's context under the lock: a cancel function closes a
// channel and returns. Not a finding.
func (j *Job) Stop() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.cancel != nil {
		j.cancel()
	}
}

// StopHook runs the user's hook under the lock: a finding.
func (j *Job) StopHook() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.onStop() // want `j.mu held across call of func value j.onStop \(locked at idioms.go:33, released by defer\) \(plausible: the func value can be field onStop, which the package never sets\)`
}

// StopHookOutside is its twin.
func (j *Job) StopHookOutside() {
	j.mu.Lock()
	hook := j.onStop
	j.mu.Unlock()
	hook()
}

// Start stores a context cancel function derived inside the lock.
func (j *Job) Start(ctx context.Context) context.Context {
	j.mu.Lock()
	defer j.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	if j.cancel != nil {
		j.cancel()
	}
	j.cancel = cancel
	return ctx
}

// Registry lists its services for a status page.
type Registry struct {
	mu       sync.RWMutex
	services map[string]int
	watchers map[string]func(int)
}

// Names iterates with a standard-library iterator under the read lock: not
// a finding.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.services))
}

// NotifyHeld runs every watcher in a range-over-func loop under the lock:
// the loop body runs in place, so its callback is a finding.
func (r *Registry) NotifyHeld(name string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, w := range maps.All(r.watchers) {
		w(r.services[name]) // want `r.mu held across call of func value w \(locked at idioms.go:76, released by defer\) \(plausible: the func value can be a parameter of \(\*Registry\)\.NotifyHeld\.func1, which is also called indirectly\)`
	}
}

// Notify is its twin: it copies the watchers out first.
func (r *Registry) Notify(name string) {
	r.mu.RLock()
	ws := slices.Collect(maps.Values(r.watchers))
	v := r.services[name]
	r.mu.RUnlock()
	for _, w := range ws {
		w(v)
	}
}

// Signal hands off wake-ups on a channel it created with room for one.
type Signal struct {
	mu      sync.Mutex
	pending int
	wake    chan struct{}
	events  chan string
}

func NewSignal() *Signal {
	return &Signal{wake: make(chan struct{}, 1), events: make(chan string)}
}

// Poke sends on the buffered wake-up channel under the lock: a deliberate
// hand-off, not a wait. Not a finding.
func (s *Signal) Poke() {
	s.mu.Lock()
	s.pending++
	s.wake <- struct{}{}
	s.mu.Unlock()
}

// PublishHeld sends on the unbuffered events channel under the lock: it
// waits for a reader.
func (s *Signal) PublishHeld(ev string) {
	s.mu.Lock()
	s.pending++
	s.events <- ev // want `s.mu held across channel send \(locked at idioms.go:118\)`
	s.mu.Unlock()
}

// Publish is its twin.
func (s *Signal) Publish(ev string) {
	s.mu.Lock()
	s.pending++
	s.mu.Unlock()
	s.events <- ev
}

// Journal writes entries through a helper.
type Journal struct {
	mu  sync.Mutex
	out io.Writer
	n   int
}

// appendLocked writes one line; callers hold j.mu.
func (j *Journal) appendLocked(line string) {
	j.n++
	io.WriteString(j.out, line)
	j.out.Write([]byte("\n"))
}

// AppendHeld calls the writing helper under the lock: the helper's
// interface call runs in the critical section.
func (j *Journal) AppendHeld(line string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.appendLocked(line) // want `j.mu held across call of \(\*Journal\).appendLocked, which calls interface method io.Writer.Write \(locked at idioms.go:149, released by defer\) \(plausible: io\.Writer can be implemented outside this module\)`
}

// format is pure; Append is the twin that formats under the lock and
// writes outside it.
func (j *Journal) format(line string) []byte {
	j.n++
	return []byte(line + "\n")
}

func (j *Journal) Append(line string) {
	j.mu.Lock()
	b := j.format(line)
	j.mu.Unlock()
	j.out.Write(b)
}

// Unlocker keeps the unlock as a method value.
func (j *Journal) FlushWith(write func([]byte)) {
	j.mu.Lock()
	unlock := j.mu.Unlock
	b := j.format("flush")
	unlock()
	write(b)
}

// FlushWithHeld keeps the lock: the method value is called after the write.
func (j *Journal) FlushWithHeld(write func([]byte)) {
	j.mu.Lock()
	unlock := j.mu.Unlock
	b := j.format("flush")
	write(b) // want `j.mu held across call of func value write \(locked at idioms.go:179\)`
	unlock()
}
