// Package moby_doublelock_embedded is modelled on a Moby (Docker) daemon
// self-deadlock through a mutex embedded in the container state: the stop
// path locks the container (container.Lock, promoted from the embedded
// State's sync.Mutex) and, when the kill fails because the process is
// already gone, calls Reset to clear the state, and Reset locks the
// container again.
package moby_doublelock_embedded

import (
	"errors"
	"sync"
)

// ErrNotRunning is returned when the process is already gone.
var ErrNotRunning = errors.New("container not running")

// State is a container's run state; its embedded mutex is the container lock.
type State struct {
	sync.Mutex
	Running  bool
	Pid      int
	ExitCode int
}

// Container is one container. Buggy version.
type Container struct {
	*State
	ID string
}

// NewContainer returns a stopped container.
func NewContainer(id string) *Container { return &Container{State: &State{}, ID: id} }

// Start records that the container's process pid is running.
func (c *Container) Start(pid int) {
	c.Lock()
	defer c.Unlock()
	c.Running = true
	c.Pid = pid
}

// Reset clears the run state after the process is gone.
func (c *Container) Reset() {
	c.Lock()
	defer c.Unlock()
	c.Running = false
	c.Pid = 0
}

// Stop kills the container's process with kill.
func (c *Container) Stop(kill func(pid int) error) error {
	c.Lock()
	defer c.Unlock()
	if !c.Running {
		return nil
	}
	if err := kill(c.Pid); err != nil {
		if errors.Is(err, ErrNotRunning) {
			c.Reset() // BUG: Reset locks the container again
			return nil
		}
		return err
	}
	c.Running = false
	c.ExitCode = 137
	return nil
}

// StateFixed is the fixed version's state.
type StateFixed struct {
	sync.Mutex
	Running  bool
	Pid      int
	ExitCode int
}

// ContainerFixed is the fixed version: Stop calls the lock-free resetLocked.
type ContainerFixed struct {
	*StateFixed
	ID string
}

// NewContainerFixed returns a stopped container.
func NewContainerFixed(id string) *ContainerFixed {
	return &ContainerFixed{StateFixed: &StateFixed{}, ID: id}
}

// Start records that the container's process pid is running.
func (c *ContainerFixed) Start(pid int) {
	c.Lock()
	defer c.Unlock()
	c.Running = true
	c.Pid = pid
}

// Reset clears the run state after the process is gone.
func (c *ContainerFixed) Reset() {
	c.Lock()
	defer c.Unlock()
	c.resetLocked()
}

func (c *ContainerFixed) resetLocked() {
	c.Running = false
	c.Pid = 0
}

// Stop kills the container's process with kill.
func (c *ContainerFixed) Stop(kill func(pid int) error) error {
	c.Lock()
	defer c.Unlock()
	if !c.Running {
		return nil
	}
	if err := kill(c.Pid); err != nil {
		if errors.Is(err, ErrNotRunning) {
			c.resetLocked()
			return nil
		}
		return err
	}
	c.Running = false
	c.ExitCode = 137
	return nil
}
