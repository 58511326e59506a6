//go:build linux

package procgroup

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestChildDiesWithParent starts a shell (the parent) that starts a
// sleeping grandchild through this package's setup, kills the parent with
// SIGKILL, and checks that the grandchild does not outlive it.
func TestChildDiesWithParent(t *testing.T) {
	if os.Getenv("PROCGROUP_HELPER") == "1" {
		cmd := Command(context.Background(), "sleep", "60")
		if err := cmd.Start(); err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
		time.Sleep(time.Minute)
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(self, "-test.run=^TestChildDiesWithParent$")
	parent.Env = append(os.Environ(), "PROCGROUP_HELPER=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 32)
	n, _ := out.Read(buf)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		parent.Process.Kill()
		t.Fatalf("helper printed %q", buf[:n])
	}
	parent.Process.Kill()
	parent.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		// A zombie still answers signal 0 until reaped by init; check its state.
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(stat), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("child %d outlived its killed parent by 10s", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
