package chancycle

import "sync"

// A connection pool hands a freed connection to a waiting caller through
// the caller's result channel, made with room for the one result it gets.
// The waiter takes the request's lock to cancel when its context ends.

type poolConn struct{ id int }

type wantConn struct {
	mu     sync.Mutex
	done   bool
	result chan *poolConn
}

func newWantConn() *wantConn { return &wantConn{result: make(chan *poolConn, 1)} }

// tryDeliver sends the one result and closes the channel: the buffer
// always has room for it. Not a finding.
func (w *wantConn) tryDeliver(cn *poolConn) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return false
	}
	w.done = true
	w.result <- cn
	close(w.result)
	return true
}

// wait takes the request's lock when it gives up, before it receives the
// result a delivery may have sent meanwhile.
func (w *wantConn) wait(cancelled <-chan struct{}) *poolConn {
	select {
	case cn := <-w.result:
		return cn
	case <-cancelled:
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
		return <-w.result
	}
}

// A stream of connections to one waiter: each delivery adds one, and the
// buffer can fill while the waiter waits for the lock.

type wantConns struct {
	mu      sync.Mutex
	done    bool
	results chan *poolConn
}

func newWantConns() *wantConns { return &wantConns{results: make(chan *poolConn, 4)} }

func (w *wantConns) deliver(cn *poolConn) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return false
	}
	w.results <- cn // want `w.mu held across channel send, whose receiver \(delivery.go:\d+\) takes w.mu before it receives again \(locked at delivery.go:\d+, released by defer\)`
	return true
}

func (w *wantConns) drain(cancelled <-chan struct{}) []*poolConn {
	var out []*poolConn
	for {
		select {
		case cn := <-w.results:
			out = append(out, cn)
		case <-cancelled:
			w.mu.Lock()
			w.done = true
			w.mu.Unlock()
			return out
		}
	}
}
