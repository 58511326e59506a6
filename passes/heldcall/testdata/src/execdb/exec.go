package execdb

import (
	"context"
	"os/exec"
	"sync"
)

// Transcoder shells out to ffmpeg for each upload.
type Transcoder struct {
	mu     sync.Mutex
	active map[string]bool
	bin    string
}

// TranscodeHeld runs the child process with the job table locked.
func (t *Transcoder) TranscodeHeld(ctx context.Context, cmd *exec.Cmd, id string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.active[id] {
		return nil
	}
	t.active[id] = true
	err := cmd.Run() // want `t.mu held across call of exec.\(\*Cmd\).Run \(locked at exec.go:18, released by defer\)`
	delete(t.active, id)
	return err
}

// Transcode marks the job under the lock and runs the process without.
func (t *Transcoder) Transcode(ctx context.Context, cmd *exec.Cmd, id string) error {
	t.mu.Lock()
	if t.active[id] {
		t.mu.Unlock()
		return nil
	}
	t.active[id] = true
	t.mu.Unlock()

	err := cmd.Run()

	t.mu.Lock()
	delete(t.active, id)
	t.mu.Unlock()
	return err
}

// GitMirror keeps the current revision of a repository.
type GitMirror struct {
	mu  sync.Mutex
	rev string
}

func (g *GitMirror) RefreshHeld(cmd *exec.Cmd) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	out, err := cmd.Output() // want `g.mu held across call of exec.\(\*Cmd\).Output \(locked at exec.go:54, released by defer\)`
	if err != nil {
		return err
	}
	g.rev = string(out)
	return nil
}

func (g *GitMirror) Refresh(cmd *exec.Cmd) error {
	out, err := cmd.Output()
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.rev = string(out)
	g.mu.Unlock()
	return nil
}

// Supervisor restarts a worker process.
type Supervisor struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	runs int
}

func (s *Supervisor) WaitHeld() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs++
	return s.cmd.Wait() // want `s.mu held across call of exec.\(\*Cmd\).Wait \(locked at exec.go:83, released by defer\)`
}

func (s *Supervisor) Wait() error {
	s.mu.Lock()
	s.runs++
	cmd := s.cmd
	s.mu.Unlock()
	return cmd.Wait()
}

// Command builds the command line under the lock (it reads the configured
// binary) and runs the process after: building an exec.Cmd does not block.
func (t *Transcoder) Command(ctx context.Context, src, dst string) error {
	t.mu.Lock()
	cmd := exec.CommandContext(ctx, t.bin, "-i", src, dst)
	t.mu.Unlock()
	return cmd.Run()
}
