// Package procgroup runs child processes in their own process group, so that
// an interrupted run can stop a child and everything the child started
// (compilers, vet tools, test binaries), and nothing else.
//
// In a shared process group a terminal's Ctrl-C reaches the children
// directly; in their own, it reaches only the parent, which decides: it
// cancels the command's context, the group gets SIGINT (on Unix), a child
// that survives it is killed after the command's WaitDelay, and Wait kills
// whatever is left of the group.
package procgroup

import (
	"context"
	"os/exec"
	"time"
)

// DefaultWaitDelay bounds how long an interrupted child may take to clean up
// before it is killed.
const DefaultWaitDelay = 5 * time.Second

// Command returns a command that runs name in its own process group and is
// interrupted (SIGINT to the group, then killed after DefaultWaitDelay) when
// ctx is done. Start it, then finish it with Wait.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	Setup(cmd)
	return cmd
}

// Setup makes an unstarted command the leader of a new process group and
// sets its cancellation to interrupt the group. The command must have been
// created with exec.CommandContext for the cancellation to apply.
func Setup(cmd *exec.Cmd) {
	setProcessGroup(cmd)
	setDeathSignal(cmd)
	cmd.Cancel = func() error { return Interrupt(cmd) }
	cmd.WaitDelay = DefaultWaitDelay
}

// Wait waits for cmd. If ctx was cancelled it then kills any process left in
// the command's process group (a grandchild that outlived the interrupted
// child). Only then: after a normal exit the group id of a reaped leader must
// not be signalled needlessly.
func Wait(ctx context.Context, cmd *exec.Cmd) error {
	err := cmd.Wait()
	if ctx.Err() != nil && cmd.Process != nil {
		Kill(cmd)
	}
	return err
}

// Run starts cmd and waits for it with Wait.
func Run(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return Wait(ctx, cmd)
}
