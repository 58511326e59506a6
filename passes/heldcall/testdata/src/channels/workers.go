package channels

import (
	"context"
	"errors"
	"sync"
)

// Job is a unit of work for the dispatcher.
type Job struct {
	ID   int
	Body []byte
}

// Dispatcher feeds jobs to a fixed set of workers.
type Dispatcher struct {
	mu      sync.Mutex
	pending []Job
	work    chan Job
	results chan error
	closed  bool
}

// ResultHeld waits for a worker's result with the dispatcher locked, so no
// worker can take the lock to report: a deadlock waiting to happen.
func (d *Dispatcher) ResultHeld() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	err := <-d.results // want `d.mu held across channel receive \(locked at workers.go:27, released by defer\)`
	if err != nil {
		d.closed = true
	}
	return err
}

func (d *Dispatcher) Result() error {
	err := <-d.results
	if err != nil {
		d.mu.Lock()
		d.closed = true
		d.mu.Unlock()
	}
	return err
}

// DrainHeld collects every result with the lock held until the channel is
// closed.
func (d *Dispatcher) DrainHeld() []error {
	var errs []error
	d.mu.Lock()
	for err := range d.results { // want `d.mu held across channel receive \(locked at workers.go:50\)`
		errs = append(errs, err)
	}
	d.closed = true
	d.mu.Unlock()
	return errs
}

func (d *Dispatcher) Drain() []error {
	var errs []error
	for err := range d.results {
		errs = append(errs, err)
	}
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	return errs
}

// SubmitHeld waits for the caller's context with the queue locked.
func (d *Dispatcher) SubmitHeld(ctx context.Context, j Job) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("dispatcher closed")
	}
	if len(d.pending) > 1000 {
		<-ctx.Done() // want `d.mu held across channel receive \(locked at workers.go:72, released by defer\)`
		return ctx.Err()
	}
	d.pending = append(d.pending, j)
	return nil
}

func (d *Dispatcher) Submit(ctx context.Context, j Job) error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return errors.New("dispatcher closed")
	}
	full := len(d.pending) > 1000
	if !full {
		d.pending = append(d.pending, j)
	}
	d.mu.Unlock()
	if full {
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

// DispatchHeld hands the next job to a worker with the lock held.
func (d *Dispatcher) DispatchHeld() {
	d.mu.Lock()
	if len(d.pending) > 0 {
		j := d.pending[0]
		d.pending = d.pending[1:]
		d.work <- j // want `d.mu held across channel send \(locked at workers.go:105\)`
	}
	d.mu.Unlock()
}

func (d *Dispatcher) Dispatch() {
	d.mu.Lock()
	if len(d.pending) == 0 {
		d.mu.Unlock()
		return
	}
	j := d.pending[0]
	d.pending = d.pending[1:]
	d.mu.Unlock()
	d.work <- j
}

// WaitIdleHeld blocks in a select until a worker finishes or the context
// ends.
func (d *Dispatcher) WaitIdleHeld(ctx context.Context, idle <-chan struct{}) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	select { // want `d.mu held across blocking select \(locked at workers.go:129, released by defer\)`
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *Dispatcher) WaitIdle(ctx context.Context, idle <-chan struct{}) error {
	select {
	case <-idle:
	case <-ctx.Done():
		return ctx.Err()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("dispatcher closed")
	}
	return nil
}

// OnClose registers a closure under the lock; the closure's send runs
// later, without the lock.
func (d *Dispatcher) OnClose(done chan<- struct{}) func() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return func() { done <- struct{}{} }
}
