// Package moby_statenotify is modelled on a Moby (Docker) container
// monitor deadlock: when containerd reports an exit, SetExited updates the
// container's state under the container's lock and publishes the new state
// through a method of a separate StateNotifier, which sends on an
// unbuffered channel. The restart manager that receives those states locks
// the container to decide on a restart before it receives again, so two
// exit events in a row leave the second SetExited holding the lock in the
// send and the restart manager waiting for the lock.
package moby_statenotify

import "sync"

// StateNotifier delivers container state changes to the restart manager.
type StateNotifier struct {
	ch chan string
}

// NewStateNotifier makes an unbuffered notifier.
func NewStateNotifier() *StateNotifier { return &StateNotifier{ch: make(chan string)} }

// Publish hands st to the restart manager.
func (n *StateNotifier) Publish(st string) { n.ch <- st }

// Next waits for the next state.
func (n *StateNotifier) Next() (string, bool) {
	st, ok := <-n.ch
	return st, ok
}

// Container is a container's runtime state. Buggy version.
type Container struct {
	mu           sync.Mutex
	ID           string
	State        string
	ExitCode     int
	RestartCount int
	notifier     *StateNotifier
}

// NewContainer starts the container's restart manager.
func NewContainer(id string) *Container {
	c := &Container{ID: id, State: "created", notifier: NewStateNotifier()}
	go c.restartManager()
	return c
}

// SetExited records an exit reported by containerd.
func (c *Container) SetExited(code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.State = "exited"
	c.ExitCode = code
	c.notifier.Publish(c.State) // BUG: c.mu held; restartManager locks c.mu between receives
}

func (c *Container) restartManager() {
	for {
		st, ok := c.notifier.Next()
		if !ok {
			return
		}
		if st != "exited" {
			continue
		}
		c.mu.Lock()
		if c.ExitCode != 0 && c.RestartCount < 3 {
			c.RestartCount++
			c.State = "restarting"
		}
		c.mu.Unlock()
	}
}

// ContainerFixed is the fixed version: the state is read out under the
// lock and published after it is released.
type ContainerFixed struct {
	mu           sync.Mutex
	ID           string
	State        string
	ExitCode     int
	RestartCount int
	notifier     *StateNotifier
}

// NewContainerFixed starts the container's restart manager.
func NewContainerFixed(id string) *ContainerFixed {
	c := &ContainerFixed{ID: id, State: "created", notifier: NewStateNotifier()}
	go c.restartManager()
	return c
}

// SetExited records an exit reported by containerd.
func (c *ContainerFixed) SetExited(code int) {
	c.mu.Lock()
	c.State = "exited"
	c.ExitCode = code
	st := c.State
	c.mu.Unlock()
	c.notifier.Publish(st)
}

func (c *ContainerFixed) restartManager() {
	for {
		st, ok := c.notifier.Next()
		if !ok {
			return
		}
		if st != "exited" {
			continue
		}
		c.mu.Lock()
		if c.ExitCode != 0 && c.RestartCount < 3 {
			c.RestartCount++
			c.State = "restarting"
		}
		c.mu.Unlock()
	}
}
