//go:build !unix

package procgroup

import "os/exec"

// setProcessGroup does nothing: without Unix process groups a child's
// children are not reached.
func setProcessGroup(*exec.Cmd) {}

// Interrupt kills cmd: other systems cannot deliver SIGINT to a child.
func Interrupt(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// Kill does nothing; see setProcessGroup.
func Kill(*exec.Cmd) {}
