// Package taskloop runs the tasks handed to it one at a time on a
// goroutine of its own, as an ICE agent's task loop does. Run waits for
// its task to finish.
package taskloop

import (
	"errors"
	"net"
)

// ErrClosed is returned once the loop is closed.
var ErrClosed = errors.New("task loop closed")

type task struct {
	fn   func()
	done chan struct{}
}

// A Loop runs submitted tasks serially.
type Loop struct {
	tasks   chan task
	closed  chan struct{}
	stopped chan struct{}
}

// New starts a loop; onClose runs once the loop has stopped taking
// tasks.
func New(onClose func()) *Loop {
	l := &Loop{tasks: make(chan task), closed: make(chan struct{}), stopped: make(chan struct{})}
	go l.run(onClose)
	return l
}

func (l *Loop) run(onClose func()) {
	defer func() {
		onClose()
		close(l.stopped)
	}()
	for {
		select {
		case <-l.closed:
			return
		case t := <-l.tasks:
			t.fn()
			close(t.done)
		}
	}
}

// Run hands fn to the loop and waits until it has run.
func (l *Loop) Run(fn func()) error {
	done := make(chan struct{})
	select {
	case <-l.closed:
		return ErrClosed
	case l.tasks <- task{fn, done}:
		<-done
		return nil
	}
}

// Close stops the loop.
func (l *Loop) Close() { close(l.closed) }

// A Pacer is a loop that also writes a keepalive to its connection before
// each task: waiting for it waits for that write.
type Pacer struct {
	conn  net.Conn
	tasks chan *task
}

// NewPacer starts a pacer over conn.
func NewPacer(conn net.Conn) *Pacer {
	p := &Pacer{conn: conn, tasks: make(chan *task)}
	go p.run()
	return p
}

func (p *Pacer) run() {
	for t := range p.tasks {
		p.conn.Write([]byte("keepalive"))
		t.fn()
		close(t.done)
	}
}

// Run hands fn to the pacer and waits until it has run.
func (p *Pacer) Run(fn func()) {
	done := make(chan struct{})
	p.tasks <- &task{fn: fn, done: done}
	<-done
}
