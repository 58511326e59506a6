//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd the leader of a new process group.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Interrupt sends SIGINT to the process group of a started cmd.
func Interrupt(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
}

// Kill kills what is left of the process group of a started cmd (ESRCH,
// ignored, when nothing is).
func Kill(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
