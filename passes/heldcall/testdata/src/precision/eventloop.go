package precision

import (
	"errors"
	"sync"
)

// A pubsub service runs every change of its state on one event loop: a
// topic hands the loop a closure and waits for its answer on a buffered
// channel the closure always sends on. The hand-off waits for the loop to
// be free (a warning); the answer is owed once the loop has taken the
// closure, and the receive is that same wait, not another.

var errLoopClosed = errors.New("pubsub closed")

type pubsubLoop struct {
	eval chan func()
	done chan struct{}
}

func newPubsubLoop() *pubsubLoop {
	p := &pubsubLoop{eval: make(chan func()), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *pubsubLoop) run() {
	for {
		select {
		case f := <-p.eval:
			f()
		case <-p.done:
			return
		}
	}
}

type scoreTopic struct {
	mux     sync.Mutex
	loop    *pubsubLoop
	score   int
	waiters []chan error
}

// SetScore waits for the loop under its lock, then for the answer the
// closure owes.
func (t *scoreTopic) SetScore(v int) error {
	t.mux.Lock()
	defer t.mux.Unlock()
	result := make(chan error, 1)
	select { // want `t.mux held across blocking select \(locked at eventloop.go:48, released by defer\)`
	case t.loop.eval <- func() {
		t.score = v
		result <- nil
	}:
		return <-result
	case <-t.loop.done:
		return errLoopClosed
	}
}

// SetScoreQueued is the twin: the closure queues the answer channel for
// a later event to answer, which may never come: the receive waits for it.
func (t *scoreTopic) SetScoreQueued(v int) error {
	t.mux.Lock()
	defer t.mux.Unlock()
	result := make(chan error, 1)
	select { // want `t.mux held across blocking select \(locked at eventloop.go:65, released by defer\)`
	case t.loop.eval <- func() {
		t.score = v
		t.waiters = append(t.waiters, result)
	}:
		return <-result // want `t.mux held across channel receive \(locked at eventloop.go:65, released by defer\)`
	case <-t.loop.done:
		return errLoopClosed
	}
}

// settle answers the queued waiters on the loop.
func (t *scoreTopic) settle() {
	t.loop.eval <- func() {
		for _, w := range t.waiters {
			w <- nil
		}
		t.waiters = nil
	}
}
