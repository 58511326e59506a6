// Package istio_debouncetimer is modelled on an Istio pilot push-debounce
// bug: the push loop asks the debouncer for the next merged push request,
// and Next waits out the quiet period on a timer while holding the
// debouncer's mutex. Every config event in the meantime calls Enqueue,
// which needs that mutex to merge itself into the pending request, so the
// informer goroutines stall for the whole quiet period, on every push.
package istio_debouncetimer

import (
	"sync"
	"time"
)

// PushRequest is a set of changed configs.
type PushRequest struct {
	Full    bool
	Configs map[string]bool
}

func merge(a, b *PushRequest) *PushRequest {
	if a == nil {
		return b
	}
	out := &PushRequest{Full: a.Full || b.Full, Configs: map[string]bool{}}
	for k := range a.Configs {
		out.Configs[k] = true
	}
	for k := range b.Configs {
		out.Configs[k] = true
	}
	return out
}

// Debouncer merges config events that arrive close together. Buggy version.
type Debouncer struct {
	mu      sync.Mutex
	pending *PushRequest
	quiet   time.Duration
}

// NewDebouncer waits quiet after the last event.
func NewDebouncer(quiet time.Duration) *Debouncer { return &Debouncer{quiet: quiet} }

// Enqueue merges req into the pending push.
func (d *Debouncer) Enqueue(req *PushRequest) {
	d.mu.Lock()
	d.pending = merge(d.pending, req)
	d.mu.Unlock()
}

// Next waits out the quiet period and returns the merged push, if any.
func (d *Debouncer) Next() *PushRequest {
	d.mu.Lock()
	defer d.mu.Unlock()
	timer := time.NewTimer(d.quiet)
	<-timer.C // BUG: d.mu held for the whole quiet period; Enqueue needs it
	req := d.pending
	d.pending = nil
	return req
}

// DebouncerFixed is the fixed version: the quiet period is waited out
// without the mutex; only the swap of the pending request is locked.
type DebouncerFixed struct {
	mu      sync.Mutex
	pending *PushRequest
	quiet   time.Duration
}

// NewDebouncerFixed waits quiet after the last event.
func NewDebouncerFixed(quiet time.Duration) *DebouncerFixed {
	return &DebouncerFixed{quiet: quiet}
}

// Enqueue merges req into the pending push.
func (d *DebouncerFixed) Enqueue(req *PushRequest) {
	d.mu.Lock()
	d.pending = merge(d.pending, req)
	d.mu.Unlock()
}

// Next waits out the quiet period and returns the merged push, if any.
func (d *DebouncerFixed) Next() *PushRequest {
	timer := time.NewTimer(d.quiet)
	<-timer.C
	d.mu.Lock()
	defer d.mu.Unlock()
	req := d.pending
	d.pending = nil
	return req
}
