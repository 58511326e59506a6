// Package istio_pushselect is modelled on an Istio pilot xDS connection
// deadlock: Push records the nonce it is about to send under the
// connection's mutex and then, still holding it, waits in a select for the
// stream goroutine to take the push or for the connection to stop. The
// stream goroutine handles an incoming ACK by updating the watched
// resources under the same mutex, and while it waits for the mutex it is
// not receiving pushes.
package istio_pushselect

import (
	"errors"
	"sync"
)

// ErrClosed is returned by Push on a closed connection.
var ErrClosed = errors.New("connection closed")

// PushRequest is one xDS response to send.
type PushRequest struct {
	TypeURL string
	Nonce   string
	Names   []string
}

// Ack is a client's acknowledgement of a push.
type Ack struct {
	TypeURL string
	Nonce   string
	Names   []string
}

// Connection is one proxy's xDS stream. Buggy version.
type Connection struct {
	mu        sync.Mutex
	watched   map[string][]string
	nonceSent map[string]string
	pushCh    chan *PushRequest
	stop      chan struct{}
}

// NewConnection starts the stream goroutine.
func NewConnection(send func(*PushRequest) error, acks <-chan Ack) *Connection {
	c := &Connection{
		watched:   map[string][]string{},
		nonceSent: map[string]string{},
		pushCh:    make(chan *PushRequest),
		stop:      make(chan struct{}),
	}
	go c.streamLoop(send, acks)
	return c
}

// Push queues req for the stream.
func (c *Connection) Push(req *PushRequest) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nonceSent[req.TypeURL] = req.Nonce
	select { // BUG: c.mu held; streamLoop takes c.mu to handle an ACK
	case c.pushCh <- req:
		return nil
	case <-c.stop:
		return ErrClosed
	}
}

func (c *Connection) streamLoop(send func(*PushRequest) error, acks <-chan Ack) {
	defer close(c.stop)
	for {
		select {
		case req := <-c.pushCh:
			if err := send(req); err != nil {
				return
			}
		case ack, ok := <-acks:
			if !ok {
				return
			}
			c.mu.Lock()
			if c.nonceSent[ack.TypeURL] == ack.Nonce {
				c.watched[ack.TypeURL] = ack.Names
			}
			c.mu.Unlock()
		}
	}
}

// ConnectionFixed is the fixed version: the nonce is recorded under the
// mutex and the hand-off happens after it is released.
type ConnectionFixed struct {
	mu        sync.Mutex
	watched   map[string][]string
	nonceSent map[string]string
	pushCh    chan *PushRequest
	stop      chan struct{}
}

// NewConnectionFixed starts the stream goroutine.
func NewConnectionFixed(send func(*PushRequest) error, acks <-chan Ack) *ConnectionFixed {
	c := &ConnectionFixed{
		watched:   map[string][]string{},
		nonceSent: map[string]string{},
		pushCh:    make(chan *PushRequest),
		stop:      make(chan struct{}),
	}
	go c.streamLoop(send, acks)
	return c
}

// Push queues req for the stream.
func (c *ConnectionFixed) Push(req *PushRequest) error {
	c.mu.Lock()
	c.nonceSent[req.TypeURL] = req.Nonce
	c.mu.Unlock()
	select {
	case c.pushCh <- req:
		return nil
	case <-c.stop:
		return ErrClosed
	}
}

func (c *ConnectionFixed) streamLoop(send func(*PushRequest) error, acks <-chan Ack) {
	defer close(c.stop)
	for {
		select {
		case req := <-c.pushCh:
			if err := send(req); err != nil {
				return
			}
		case ack, ok := <-acks:
			if !ok {
				return
			}
			c.mu.Lock()
			if c.nonceSent[ack.TypeURL] == ack.Nonce {
				c.watched[ack.TypeURL] = ack.Names
			}
			c.mu.Unlock()
		}
	}
}
