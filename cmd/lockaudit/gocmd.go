package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// goCommandWaitDelay bounds how long an interrupted go command may take to
// clean up (remove its $WORK directory) before it is killed.
const goCommandWaitDelay = 5 * time.Second

// goCommand returns a go command that runs in dir, in its own process group,
// and is stopped when ctx is done.
//
// Its own process group: the go command runs many children (compilers, this
// binary as the vet tool), and all of them must go. On cancellation the whole
// group gets SIGINT, which makes the go command stop scheduling work, remove
// its temporary directory and exit; if it has not exited after
// goCommandWaitDelay it is killed. finishGoCommand then kills whatever is left
// of the group. (With a shared process group, a terminal's Ctrl-C would reach
// the children directly; a separate group means it reaches only us and we
// decide.)
func goCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	}
	cmd.WaitDelay = goCommandWaitDelay
	return cmd
}

// finishGoCommand waits for cmd. If ctx was cancelled it then kills any
// process left in the command's process group (a vet tool or compiler that
// outlived the interrupted go command). Only then: after a normal exit the go
// command has already waited for all its children, and the group id of a
// reaped leader must not be signalled needlessly.
func finishGoCommand(ctx context.Context, cmd *exec.Cmd) error {
	err := cmd.Wait()
	if ctx.Err() != nil && cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH when the group is gone
	}
	return err
}

// runGoCommand runs the go command to completion with the given stdout and
// stderr writers.
func runGoCommand(ctx context.Context, dir string, stdout, stderr io.Writer, args ...string) error {
	cmd := goCommand(ctx, dir, args...)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	return finishGoCommand(ctx, cmd)
}
