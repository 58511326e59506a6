// Package executors holds the cases of a task handed to an executor that
// takes the lock its caller holds while it waits for the task: the loop
// waits for the lock, the caller for the loop.
package executors

import (
	"sync"

	"executors/taskloop"
)

type transport struct {
	mu    sync.Mutex
	loop  *taskloop.Loop
	state string
}

// setState is run on the loop: it takes the transport's lock.
func (t *transport) setState(s string) {
	t.mu.Lock()
	t.state = s
	t.mu.Unlock()
}

// Restart holds the lock while the loop runs a task that takes it.
func (t *transport) Restart() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.loop.Run(func() { t.setState("restarting") }) // want `t.mu locked again through call of taskloop.\(\*Loop\).Run while held`
}

// RestartUnlocked is its twin: the task runs after the lock is released.
func (t *transport) RestartUnlocked() {
	t.mu.Lock()
	loop := t.loop
	t.mu.Unlock()
	loop.Run(func() { t.setState("restarting") })
}
