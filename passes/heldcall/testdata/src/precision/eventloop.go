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
	eval   chan func()
	addSub chan *subReq
	rmSub  chan *subReq
	done   chan struct{}
	subs   map[string]int
}

// A subReq asks the loop for a subscription, answered on resp.
type subReq struct {
	topic string
	resp  chan int
}

func newPubsubLoop() *pubsubLoop {
	p := &pubsubLoop{eval: make(chan func()), addSub: make(chan *subReq), rmSub: make(chan *subReq), done: make(chan struct{}), subs: map[string]int{}}
	go p.run()
	return p
}

func (p *pubsubLoop) run() {
	for {
		select {
		case f := <-p.eval:
			f()
		case req := <-p.addSub:
			p.handleAddSub(req)
		case req := <-p.rmSub:
			p.handleRmSub(req)
		case <-p.done:
			return
		}
	}
}

// handleAddSub answers on every path.
func (p *pubsubLoop) handleAddSub(req *subReq) {
	if req.topic == "" {
		req.resp <- -1
		return
	}
	p.subs[req.topic]++
	req.resp <- p.subs[req.topic]
}

// handleRmSub forgets to answer an unknown topic.
func (p *pubsubLoop) handleRmSub(req *subReq) {
	n, ok := p.subs[req.topic]
	if !ok {
		return
	}
	p.subs[req.topic] = n - 1
	req.resp <- n - 1
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
	select { // want `t.mux held across blocking select \(locked at eventloop.go:\d+, released by defer\)`
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
	select { // want `t.mux held across blocking select \(locked at eventloop.go:\d+, released by defer\)`
	case t.loop.eval <- func() {
		t.score = v
		t.waiters = append(t.waiters, result)
	}:
		return <-result // want `t.mux held across channel receive \(locked at eventloop.go:\d+, released by defer\)`
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

// Subscribe asks the loop under its lock and receives the answer the
// handler owes.
func (t *scoreTopic) Subscribe(name string) int {
	t.mux.Lock()
	defer t.mux.Unlock()
	out := make(chan int, 1)
	select { // want `t.mux held across blocking select`
	case t.loop.addSub <- &subReq{topic: name, resp: out}:
	case <-t.loop.done:
		return 0
	}
	return <-out
}

// Unsubscribe is the twin: its handler may return without an answer, and
// the receive then waits for ever.
func (t *scoreTopic) Unsubscribe(name string) int {
	t.mux.Lock()
	defer t.mux.Unlock()
	out := make(chan int, 1)
	select { // want `t.mux held across blocking select`
	case t.loop.rmSub <- &subReq{topic: name, resp: out}:
	case <-t.loop.done:
		return 0
	}
	return <-out // want `t.mux held across channel receive`
}

// Close asks the loop to drop the topic, with the answer channel in the
// request itself.
func (t *scoreTopic) Close() int {
	t.mux.Lock()
	defer t.mux.Unlock()
	req := &subReq{topic: "score", resp: make(chan int, 1)}
	select { // want `t.mux held across blocking select`
	case t.loop.addSub <- req:
	case <-t.loop.done:
		return 0
	}
	return <-req.resp
}
