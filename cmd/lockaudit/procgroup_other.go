//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing: without Unix process groups the go
// command's children are not reached (and its $WORK is still removed).
func setProcessGroup(*exec.Cmd) {}

// interruptGroup kills the go command: other systems cannot deliver SIGINT
// to a child.
func interruptGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// killGroup does nothing; see setProcessGroup.
func killGroup(*exec.Cmd) {}

// umask returns the usual mask; files keep os.CreateTemp's permissions
// adjusted to it.
func umask() os.FileMode { return 0o022 }
