// Package moby_exit_deletetask reproduces moby/moby PR #41625
// ("handleContainerExit: timeout on containerd DeleteTask").
//
// handleContainerExit takes the container lock and then calls containerd's
// DeleteTask over the containerd socket with a background context; when the shim
// never answers, the call never returns, the container lock is never released and
// every later stop, kill or inspect of that container hangs for ever. The fix
// deletes the task with a 30s timeout before taking the container lock.
package moby_exit_deletetask

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

type containerdClient interface {
	DeleteTask(ctx context.Context, containerID string) (uint32, time.Time, error)
}

// remote is the libcontainerd client: one request/response on the containerd socket.
type remote struct{ addr string }

func (r *remote) DeleteTask(ctx context.Context, id string) (uint32, time.Time, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", r.addr)
	if err != nil {
		return 255, time.Time{}, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if _, err := fmt.Fprintf(conn, "DeleteTask %s\n", id); err != nil {
		return 255, time.Time{}, err
	}
	var status uint32
	_, err = fmt.Fscanf(bufio.NewReader(conn), "%d\n", &status)
	return status, time.Now(), err
}

type Container struct {
	sync.Mutex
	ID         string
	Running    bool
	ExitCode   uint32
	FinishedAt time.Time
}

type Daemon struct{ containerd containerdClient }

func NewDaemon(sock string) *Daemon { return &Daemon{containerd: &remote{addr: sock}} }

// handleContainerExit runs on the containerd event stream for a task exit.
func (daemon *Daemon) handleContainerExit(c *Container) error {
	c.Lock()
	defer c.Unlock()
	ec, et, err := daemon.containerd.DeleteTask(context.Background(), c.ID)
	if err != nil {
		ec, et = 255, time.Now()
	}
	c.Running, c.ExitCode, c.FinishedAt = false, ec, et
	return err
}

// ContainerInspect, like stop and kill, needs the container lock.
func (daemon *Daemon) ContainerInspect(c *Container) (bool, uint32) {
	c.Lock()
	defer c.Unlock()
	return c.Running, c.ExitCode
}

// ---- fixed twin (upstream): bounded DeleteTask, before the container lock ----

func (daemon *Daemon) handleContainerExitFixed(c *Container) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	ec, et, err := daemon.containerd.DeleteTask(ctx, c.ID)
	cancel()
	if err != nil {
		ec, et = 255, time.Now()
	}
	c.Lock()
	defer c.Unlock()
	c.Running, c.ExitCode, c.FinishedAt = false, ec, et
	return err
}
