package main

// End-to-end tests of lockaudit profile runs that do not end well: an
// interrupt midway and a test binary that outlives -timeout. The packages
// that finished must still be reported, the others named, and nothing may
// be left behind.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// newProfileModule writes a module with a package whose test contends on
// a lock and finishes at once, and one whose test writes its pid to
// pidFile and then sleeps for a long time.
func newProfileModule(t *testing.T, pidFile string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.26\n")
	writeFile(t, dir, "counter/counter_test.go", `package counter

import (
	"sync"
	"testing"
)

func TestConcurrentIncrements(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	hits := map[string]int{}
	for range 8 {
		wg.Go(func() {
			for range 2000 {
				mu.Lock()
				hits["page"]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if hits["page"] != 16000 {
		t.Fatal(hits)
	}
}
`)
	writeFile(t, dir, "soak/soak_test.go", `package soak

import (
	"os"
	"strconv"
	"testing"
	"time"
)

func TestSoak(t *testing.T) {
	if err := os.WriteFile(`+strconv.Quote(pidFile)+`, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Minute)
}
`)
	return dir
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// profileResult is the JSON report's packages and errors.
type profileResult struct {
	Packages []string
	Errors   []struct{ Package, Message string }
}

func decodeProfile(t *testing.T, stdout []byte) profileResult {
	t.Helper()
	var rep profileResult
	if err := json.Unmarshal(stdout, &rep); err != nil {
		t.Fatalf("report is not JSON (%v): %s", err, stdout)
	}
	return rep
}

// progressLine matches the line a finished package prints on a stderr that
// is not a terminal, as go test does.
var okLine = regexp.MustCompile(`(?m)^ok  \texample\.com/m/counter\t\d+\.\d{3}s\tmutex [0-9.]+[µnm]?s, block [0-9.]+[µnm]?s$`)

// TestProfileInterruptReportsFinished interrupts a run while one package's
// tests are still running: the report holds the package that finished, the
// other is named as not finished, the exit code is 2, and no test binary or
// temporary directory survives.
func TestProfileInterruptReportsFinished(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	tmp := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "soak.pid")
	dir := newProfileModule(t, pidFile)
	profiles := filepath.Join(t.TempDir(), "profiles")
	// -p 2: the soak test must not keep the counter package from running.
	cmd := exec.Command(binary, "profile", "-format", "json", "-p", "2", "-o", profiles, "./...")
	cmd.Dir = dir
	cmd.Env = testEnv("TMPDIR="+tmp, "GOTMPDIR=")
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()

	// Interrupt once the counter package has finished and the soak test
	// is running.
	var pid int
	deadline := time.After(3 * time.Minute)
	for pid == 0 || !okLine.MatchString(stderr.String()) {
		select {
		case <-done:
			t.Fatalf("lockaudit ended before the interrupt: %s", stderr.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("the counter package did not finish, or the soak test did not start: %s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if data, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(string(data))
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("lockaudit did not exit after SIGINT")
	}

	if code := cmd.ProcessState.ExitCode(); code != exitError {
		t.Errorf("exit %d, want 2", code)
	}
	rep := decodeProfile(t, stdout.Bytes())
	if len(rep.Packages) != 1 || rep.Packages[0] != "example.com/m/counter" {
		t.Errorf("packages %v, want the counter package that finished", rep.Packages)
	}
	// The static analysis runs beside the tests: an interrupt that comes
	// before it is done is reported too, and costs only the join.
	errs := slices.DeleteFunc(slices.Clone(rep.Errors), func(e struct{ Package, Message string }) bool {
		return e.Package == "" && e.Message == "lockaudit check: interrupted before it finished: no findings joined"
	})
	if len(errs) != 1 || errs[0].Package != "example.com/m/soak" || errs[0].Message != "not finished: interrupted" {
		t.Errorf("errors %+v, want the soak package as not finished", rep.Errors)
	}
	if !strings.Contains(stderr.String(), "lockaudit: interrupted: the report holds the 1 package(s) that finished; 1 did not: example.com/m/soak\n") {
		t.Errorf("stderr does not name the unfinished package:\n%s", stderr.String())
	}
	for _, name := range []string{"mutex.pb.gz", "block.pb.gz"} {
		if _, err := os.Stat(filepath.Join(profiles, name)); err != nil {
			t.Errorf("merged profile of the finished package not written: %v", err)
		}
	}
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Errorf("the soak test binary (pid %d) survived the interrupt: %v", pid, err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "lockaudit-*")); len(left) != 0 {
		t.Errorf("temporary directories left behind: %v", left)
	}
}

// TestProfileTimeoutBesideFinished: a package whose test binary outlives
// -timeout is named, and the package beside it is still reported. The
// progress lines reach a stderr that is not a terminal.
func TestProfileTimeoutBesideFinished(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	dir := newProfileModule(t, filepath.Join(t.TempDir(), "soak.pid"))
	r := run(t, dir, testEnv(), binary, "profile", "-format", "json", "-timeout", "3s", "./...")
	if r.code != exitError {
		t.Errorf("exit %d, want 2; stderr:\n%s", r.code, r.stderr)
	}
	rep := decodeProfile(t, []byte(r.stdout))
	if len(rep.Packages) != 1 || rep.Packages[0] != "example.com/m/counter" {
		t.Errorf("packages %v, want the counter package", rep.Packages)
	}
	want := "not finished: tests timed out after the package's -timeout 3s"
	if len(rep.Errors) != 1 || rep.Errors[0].Package != "example.com/m/soak" || rep.Errors[0].Message != want {
		t.Errorf("errors %+v, want the soak package timed out", rep.Errors)
	}
	if !okLine.MatchString(r.stderr) {
		t.Errorf("no progress line for the counter package in stderr:\n%s", r.stderr)
	}
	failLine := regexp.MustCompile(`(?m)^FAIL\texample\.com/m/soak\t\d+\.\d{3}s\t\(` + regexp.QuoteMeta(want) + `\)$`)
	if !failLine.MatchString(r.stderr) {
		t.Errorf("no FAIL line for the soak package in stderr:\n%s", r.stderr)
	}
	// One line per package, then the errors: nothing else on a non-terminal.
	lines := 0
	sc := bufio.NewScanner(strings.NewReader(r.stderr))
	for sc.Scan() {
		lines++
	}
	if lines != 3 {
		t.Errorf("stderr has %d lines, want 3 (two packages, one error):\n%s", lines, r.stderr)
	}
}
