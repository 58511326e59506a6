package execdb

import (
	"fmt"
	"os/exec"
	"sync"
)

// Daemon supervises one helper process; its lock guards the command.
type Daemon struct {
	mu  sync.Mutex
	cmd *exec.Cmd
}

// Start launches the helper under d.mu. Waiting for a command whose
// Start failed returns at once ("exec: not started"): not a finding.
func (d *Daemon) Start(path string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	cmd := exec.Command(path)
	if err := cmd.Start(); err != nil { // want `d.mu held across call of exec.\(\*Cmd\).Start \(locked at helpers.go:\d+, released by defer\)`
		cmd.Wait()
		return fmt.Errorf("start %s: %w", path, err)
	}
	d.cmd = cmd
	return nil
}

// Run is its twin: it waits for the command it did start, holding d.mu
// for as long as the helper runs.
func (d *Daemon) Run(path string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	cmd := exec.Command(path)
	if err := cmd.Start(); err != nil { // want `d.mu held across call of exec.\(\*Cmd\).Start \(locked at helpers.go:\d+, released by defer\)`
		return fmt.Errorf("start %s: %w", path, err)
	}
	return cmd.Wait() // want `d.mu held across call of exec.\(\*Cmd\).Wait \(locked at helpers.go:\d+, released by defer\)`
}
