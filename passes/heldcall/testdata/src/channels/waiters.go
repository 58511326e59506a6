package channels

import "sync"

// A metadata refresher coalesces refresh requests: every caller that asks
// while a refresh runs gets a result slot of its own, and the refresh
// fills each slot when it is done.

type refresher struct {
	mu      sync.Mutex
	ongoing bool
	waiters []chan error
	refresh func() error
}

// wait adds a result slot with room for the one result it gets.
func (r *refresher) wait() chan error {
	ch := make(chan error, 1)
	r.waiters = append(r.waiters, ch)
	return ch
}

func (r *refresher) Refresh() error {
	r.mu.Lock()
	if r.ongoing {
		ch := r.wait()
		r.mu.Unlock()
		return <-ch
	}
	r.ongoing = true
	ch := r.wait()
	r.mu.Unlock()
	go r.run()
	return <-ch
}

// run fills every slot under the lock: each has room for its result. Not
// a finding.
func (r *refresher) run() {
	err := r.refresh()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ongoing = false
	for _, ch := range r.waiters {
		ch <- err
		close(ch)
	}
	r.waiters = nil
}

// A subscriber list whose channels are the subscribers' own, made
// unbuffered: notifying under the lock waits for each subscriber.

type notifier struct {
	mu   sync.Mutex
	subs []chan string
}

func (n *notifier) Subscribe() <-chan string {
	ch := make(chan string)
	n.mu.Lock()
	n.subs = append(n.subs, ch)
	n.mu.Unlock()
	return ch
}

func (n *notifier) Notify(ev string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, ch := range n.subs {
		ch <- ev // want `n.mu held across channel send \(locked at waiters.go:\d+, released by defer\)`
	}
}
