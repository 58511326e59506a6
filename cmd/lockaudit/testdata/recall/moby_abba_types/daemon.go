// Package moby_abba_types is modelled on a Moby (Docker) daemon
// lock-order inversion between two types: Daemon.List holds the daemon's
// container-store lock and locks each container to read its name and
// state, while Daemon.Rename locks the container first and then takes the
// store lock to move the name reservation. "docker ps" racing "docker
// rename" deadlocks.
package moby_abba_types

import (
	"errors"
	"sync"
)

// ErrNameInUse is returned by Rename.
var ErrNameInUse = errors.New("name in use")

// Container is one container. Buggy version's container type.
type Container struct {
	mu      sync.Mutex
	ID      string
	Name    string
	Running bool
}

// Daemon owns the container store. Buggy version.
type Daemon struct {
	mu         sync.Mutex
	containers map[string]*Container
	names      map[string]string // name -> ID
}

// NewDaemon returns an empty daemon.
func NewDaemon() *Daemon {
	return &Daemon{containers: map[string]*Container{}, names: map[string]string{}}
}

// Summary is what ps prints.
type Summary struct {
	ID, Name string
	Running  bool
}

// Register adds c under its name.
func (d *Daemon) Register(c *Container) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.names[c.Name]; ok {
		return ErrNameInUse
	}
	d.containers[c.ID] = c
	d.names[c.Name] = c.ID
	return nil
}

// List returns every container's summary.
func (d *Daemon) List() []Summary {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Summary, 0, len(d.containers))
	for _, c := range d.containers {
		c.mu.Lock()
		out = append(out, Summary{ID: c.ID, Name: c.Name, Running: c.Running})
		c.mu.Unlock()
	}
	return out
}

// Rename gives c a new name.
func (d *Daemon) Rename(c *Container, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d.mu.Lock() // BUG: container then daemon; List takes daemon then container
	defer d.mu.Unlock()
	if _, ok := d.names[name]; ok {
		return ErrNameInUse
	}
	delete(d.names, c.Name)
	d.names[name] = c.ID
	c.Name = name
	return nil
}

// ContainerFixed is the fixed version's container type.
type ContainerFixed struct {
	mu      sync.Mutex
	ID      string
	Name    string
	Running bool
}

// DaemonFixed is the fixed version: Rename reserves the name under the
// daemon's lock first and locks the container after releasing it, so the
// daemon's lock is never taken under a container's.
type DaemonFixed struct {
	mu         sync.Mutex
	containers map[string]*ContainerFixed
	names      map[string]string
}

// NewDaemonFixed returns an empty daemon.
func NewDaemonFixed() *DaemonFixed {
	return &DaemonFixed{containers: map[string]*ContainerFixed{}, names: map[string]string{}}
}

// Register adds c under its name.
func (d *DaemonFixed) Register(c *ContainerFixed) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.names[c.Name]; ok {
		return ErrNameInUse
	}
	d.containers[c.ID] = c
	d.names[c.Name] = c.ID
	return nil
}

// List returns every container's summary.
func (d *DaemonFixed) List() []Summary {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Summary, 0, len(d.containers))
	for _, c := range d.containers {
		c.mu.Lock()
		out = append(out, Summary{ID: c.ID, Name: c.Name, Running: c.Running})
		c.mu.Unlock()
	}
	return out
}

// Rename gives c a new name.
func (d *DaemonFixed) Rename(c *ContainerFixed, name string) error {
	d.mu.Lock()
	if _, ok := d.names[name]; ok {
		d.mu.Unlock()
		return ErrNameInUse
	}
	d.names[name] = c.ID
	d.mu.Unlock()

	c.mu.Lock()
	old := c.Name
	c.Name = name
	c.mu.Unlock()

	d.mu.Lock()
	if d.names[old] == c.ID {
		delete(d.names, old)
	}
	d.mu.Unlock()
	return nil
}
