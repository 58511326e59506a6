// Mechanism of moby#22124 ("Possible deadlock on container object"; see
// moby PR #22310 and the later change that stopped locking the container
// on exec exit): when libcontainerd reports that an exec'd process exited,
// the daemon's StateChanged handler locks the container and, still holding
// the lock, waits for the exec's stdio copiers (a WaitGroup embedded in the
// stream config). A copier opens the exec's stdout FIFO for reading; if the
// process already exited and its write end is gone, the open blocks forever,
// the wait never returns and the container lock is never released: docker
// ps, inspect and stop hang on the container (WaitGroup.Wait under a mutex
// embedded in the container; the waited-for goroutine is stuck in a FIFO
// open).
package moby_exec_fifowait

import (
	"bytes"
	"io"
	"os"
	"sync"
	"syscall"
)

// streamConfig holds an exec's stdio and the goroutines copying it.
type streamConfig struct {
	sync.WaitGroup
	mu     sync.Mutex
	stdout bytes.Buffer
}

// CopyFromFifo copies the FIFO at path into the stream's stdout.
func (s *streamConfig) CopyFromFifo(path string) {
	s.Add(1)
	go func() {
		defer s.Done()
		f, err := os.OpenFile(path, os.O_RDONLY, 0) // blocks until a writer opens the FIFO
		if err != nil {
			return
		}
		defer f.Close()
		var buf bytes.Buffer
		io.Copy(&buf, f)
		s.mu.Lock()
		s.stdout.Write(buf.Bytes())
		s.mu.Unlock()
	}()
}

// execConfig is one exec'd process.
type execConfig struct {
	ID       string
	Running  bool
	ExitCode int
	streams  *streamConfig
}

// Container is a container; its state is guarded by the embedded mutex.
type Container struct {
	sync.Mutex
	ID           string
	State        string
	execCommands map[string]*execConfig
}

// StateInfo is an event from libcontainerd.
type StateInfo struct {
	State     string // "exit-process", "exit", ...
	ProcessID string
	ExitCode  int
}

// Daemon is dockerd. Buggy version.
type Daemon struct {
	mu         sync.Mutex
	containers map[string]*Container
}

// NewDaemon returns a daemon with no containers.
func NewDaemon() *Daemon { return &Daemon{containers: map[string]*Container{}} }

// Register adds c.
func (daemon *Daemon) Register(c *Container) {
	daemon.mu.Lock()
	daemon.containers[c.ID] = c
	daemon.mu.Unlock()
}

// ContainerExecStart starts process id in container c with its stdout on the FIFO.
func (daemon *Daemon) ContainerExecStart(c *Container, id, stdoutFifo string) *execConfig {
	ec := &execConfig{ID: id, Running: true, streams: &streamConfig{}}
	c.Lock()
	c.execCommands[id] = ec
	c.Unlock()
	ec.streams.CopyFromFifo(stdoutFifo)
	return ec
}

// StateChanged handles a libcontainerd event for container id.
func (daemon *Daemon) StateChanged(id string, e StateInfo) error {
	daemon.mu.Lock()
	c := daemon.containers[id]
	daemon.mu.Unlock()
	switch e.State {
	case "exit-process":
		c.Lock()
		defer c.Unlock()
		ec := c.execCommands[e.ProcessID]
		if ec == nil {
			return nil
		}
		ec.ExitCode = e.ExitCode
		ec.Running = false
		ec.streams.Wait() // BUG: waits for the stdio copiers with the container locked
		delete(c.execCommands, e.ProcessID)
	}
	return nil
}

// ContainerSummary is one row of docker ps.
type ContainerSummary struct {
	ID    string
	State string
	Execs int
}

// List is docker ps.
func (daemon *Daemon) List() []ContainerSummary {
	daemon.mu.Lock()
	cs := make([]*Container, 0, len(daemon.containers))
	for _, c := range daemon.containers {
		cs = append(cs, c)
	}
	daemon.mu.Unlock()
	var out []ContainerSummary
	for _, c := range cs {
		c.Lock()
		out = append(out, ContainerSummary{ID: c.ID, State: c.State, Execs: len(c.execCommands)})
		c.Unlock()
	}
	return out
}

// DaemonFixed is the fixed version: the exit handler records the exit under
// the container lock and waits for the stdio copiers after releasing it.
type DaemonFixed struct {
	mu         sync.Mutex
	containers map[string]*Container
}

// NewDaemonFixed returns a daemon with no containers.
func NewDaemonFixed() *DaemonFixed { return &DaemonFixed{containers: map[string]*Container{}} }

// Register adds c.
func (daemon *DaemonFixed) Register(c *Container) {
	daemon.mu.Lock()
	daemon.containers[c.ID] = c
	daemon.mu.Unlock()
}

// ContainerExecStart starts process id in container c with its stdout on the FIFO.
func (daemon *DaemonFixed) ContainerExecStart(c *Container, id, stdoutFifo string) *execConfig {
	ec := &execConfig{ID: id, Running: true, streams: &streamConfig{}}
	c.Lock()
	c.execCommands[id] = ec
	c.Unlock()
	ec.streams.CopyFromFifo(stdoutFifo)
	return ec
}

// StateChanged handles a libcontainerd event for container id.
func (daemon *DaemonFixed) StateChanged(id string, e StateInfo) error {
	daemon.mu.Lock()
	c := daemon.containers[id]
	daemon.mu.Unlock()
	switch e.State {
	case "exit-process":
		c.Lock()
		ec := c.execCommands[e.ProcessID]
		if ec == nil {
			c.Unlock()
			return nil
		}
		ec.ExitCode = e.ExitCode
		ec.Running = false
		c.Unlock()
		ec.streams.Wait()
		c.Lock()
		delete(c.execCommands, e.ProcessID)
		c.Unlock()
	}
	return nil
}

// List is docker ps.
func (daemon *DaemonFixed) List() []ContainerSummary {
	daemon.mu.Lock()
	cs := make([]*Container, 0, len(daemon.containers))
	for _, c := range daemon.containers {
		cs = append(cs, c)
	}
	daemon.mu.Unlock()
	var out []ContainerSummary
	for _, c := range cs {
		c.Lock()
		out = append(out, ContainerSummary{ID: c.ID, State: c.State, Execs: len(c.execCommands)})
		c.Unlock()
	}
	return out
}

// mkfifo creates a FIFO at path (containerd creates the exec's stdio FIFOs).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
