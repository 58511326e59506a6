package procgroup

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the child when its parent dies
// without a chance to stop it (SIGKILL, a crash): in its own process group
// the child would otherwise outlive it, and a test binary that runs
// lockaudit profile would leave every descendant behind.
func setDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
