//go:build !linux

package procgroup

import "os/exec"

// setDeathSignal does nothing: only Linux can tie a child's life to its
// parent's.
func setDeathSignal(*exec.Cmd) {}
