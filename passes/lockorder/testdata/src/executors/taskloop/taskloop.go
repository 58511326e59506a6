// Package taskloop runs the tasks handed to it one at a time on a
// goroutine of its own; Run waits for its task to finish.
package taskloop

type task struct {
	fn   func()
	done chan struct{}
}

// A Loop runs submitted tasks serially.
type Loop struct {
	tasks  chan task
	closed chan struct{}
}

// New starts a loop.
func New() *Loop {
	l := &Loop{tasks: make(chan task), closed: make(chan struct{})}
	go l.run()
	return l
}

func (l *Loop) run() {
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
func (l *Loop) Run(fn func()) {
	done := make(chan struct{})
	select {
	case <-l.closed:
	case l.tasks <- task{fn, done}:
		<-done
	}
}
