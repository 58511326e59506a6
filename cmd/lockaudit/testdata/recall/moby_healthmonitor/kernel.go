// Package moby_healthmonitor reproduces moby/moby#28462 (GoKer moby28462), the
// container health-check monitor hang in dockerd.
//
// Daemon.StateChanged holds the container lock and, through
// Health.CloseMonitorChannel, sends a token on the unbuffered stop channel; the
// monitor goroutine that should receive it is blocked in handleProbeResult on the
// same container lock, so neither can proceed. The fix closes the channel instead
// of sending on it, which never blocks.
package moby_healthmonitor

import (
	"sync"
	"time"
)

type Health struct {
	Status string
	stop   chan struct{}
}

func (h *Health) OpenMonitorChannel() chan struct{} {
	if h.stop == nil {
		h.stop = make(chan struct{})
		return h.stop
	}
	return nil
}

// CloseMonitorChannel hands the monitor goroutine a stop token.
func (h *Health) CloseMonitorChannel() {
	if h.stop != nil {
		h.stop <- struct{}{}
		h.stop = nil
	}
}

type Container struct {
	sync.Mutex
	ID      string
	Running bool
	Health  *Health
	Probes  int
}

type Daemon struct{ Interval time.Duration }

func (d *Daemon) monitor(c *Container, stop chan struct{}) {
	t := time.NewTicker(d.Interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			d.handleProbeResult(c)
		}
	}
}

func (d *Daemon) handleProbeResult(c *Container) {
	c.Lock()
	defer c.Unlock()
	c.Probes++
	c.Health.Status = "healthy"
}

func (d *Daemon) updateHealthMonitor(c *Container) {
	if !c.Running {
		c.Health.CloseMonitorChannel()
		return
	}
	if stop := c.Health.OpenMonitorChannel(); stop != nil {
		go d.monitor(c, stop)
	}
}

// StateChanged is called by the containerd event loop on start/stop events.
func (d *Daemon) StateChanged(c *Container, running bool) {
	c.Lock()
	defer c.Unlock()
	c.Running = running
	d.updateHealthMonitor(c)
}

// ---- fixed twin: the stop channel is closed, which never blocks ----

func (h *Health) CloseMonitorChannelFixed() {
	if h.stop != nil {
		close(h.stop)
		h.stop = nil
	}
}

func (d *Daemon) StateChangedFixed(c *Container, running bool) {
	c.Lock()
	defer c.Unlock()
	c.Running = running
	if !running {
		c.Health.CloseMonitorChannelFixed()
		return
	}
	if stop := c.Health.OpenMonitorChannel(); stop != nil {
		go d.monitor(c, stop)
	}
}
