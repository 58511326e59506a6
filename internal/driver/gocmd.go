package driver

import (
	"context"
	"io"
	"os"
	"os/exec"

	"github.com/lockaudit/lockaudit/internal/procgroup"
)

// GoCommandWaitDelay bounds how long an interrupted go command may take to
// clean up (remove its $WORK directory) before it is killed.
const GoCommandWaitDelay = procgroup.DefaultWaitDelay

// goEnv is where and how the go command runs.
type goEnv struct {
	dir    string // working directory
	tmpDir string // if set, GOTMPDIR: the parent of the go command's $WORK
}

// newGoEnv returns a goEnv for dir with a fresh temporary directory for the
// go command's work directories, and a function that removes it.
//
// The go command removes its $WORK directory when it finishes, but go vet
// and go list do not handle SIGINT: interrupted, they die at once and leave
// $WORK behind (checked with Go 1.26.8). Giving them a GOTMPDIR of our own
// lets Run remove everything they leave, however they end.
func newGoEnv(dir string) (goEnv, func(), error) {
	tmp, err := os.MkdirTemp(os.Getenv("GOTMPDIR"), "lockaudit-")
	if err != nil {
		return goEnv{}, nil, err
	}
	return goEnv{dir: dir, tmpDir: tmp}, func() { os.RemoveAll(tmp) }, nil
}

// goCommand returns a go command that runs in env, in its own process group,
// and is stopped when ctx is done.
//
// Its own process group: the go command runs many children (compilers, the
// vet tool), and all of them must go. On cancellation the whole
// group gets SIGINT, which ends the go command and its children; one that
// survives it is killed after GoCommandWaitDelay, and finishGoCommand kills
// whatever is left of the group. (In a shared process group a terminal's
// Ctrl-C would reach the children directly; in their own, it reaches only us
// and we decide.)
func goCommand(ctx context.Context, env goEnv, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = env.dir
	cmd.Env = os.Environ()
	if env.tmpDir != "" {
		cmd.Env = append(cmd.Env, "GOTMPDIR="+env.tmpDir)
	}
	procgroup.Setup(cmd)
	return cmd
}

// finishGoCommand waits for cmd. If ctx was cancelled it then kills any
// process left in the command's process group (a vet tool or compiler that
// outlived the interrupted go command). Only then: after a normal exit the go
// command has already waited for all its children, and the group id of a
// reaped leader must not be signalled needlessly.
func finishGoCommand(ctx context.Context, cmd *exec.Cmd) error {
	return procgroup.Wait(ctx, cmd)
}

// runGoCommand runs the go command to completion with the given stdout and
// stderr writers.
func runGoCommand(ctx context.Context, env goEnv, stdout, stderr io.Writer, args ...string) error {
	cmd := goCommand(ctx, env, args...)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	return finishGoCommand(ctx, cmd)
}
