package profiler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/internal/procgroup"
)

// Default profiling rates for test binaries. Mutex contention is recorded
// only when a contended lock is released, so even every event (fraction 1)
// costs little: the stacks are what make the ranking exact. Blocking is far
// more frequent (every channel wait of the harness too); sampling waits of
// 10µs and more, and shorter ones in proportion to their length, keeps the
// estimate unbiased at a fraction of the cost. docs/measurements.md has the
// overhead of both.
const (
	DefaultMutexFraction = 1
	DefaultBlockRate     = 10000 // nanoseconds
)

// TestOptions control CollectTests. The flags mirror go test's.
type TestOptions struct {
	Dir        string   // where the go command runs (the module); "" means the current directory
	Patterns   []string // packages, as for go test
	BuildFlags []string // extra go build flags, e.g. -tags=x

	Run, Bench, Benchtime string        // -test.run, -test.bench, -test.benchtime; empty means the binary's default
	Count                 int           // -test.count; 0 means 1
	Timeout               time.Duration // -test.timeout; 0 means 10m
	Parallel              int           // test binaries run at once; 0 means 1 (benchmarks measure best alone)

	// Trace also records an execution trace (-test.trace) and reads the
	// sync waits in it: the tail of each lock's waits.
	Trace bool
	// Limits bound the trace read (MaxTraceBytes).
	Limits Limits

	MutexFraction int // -test.mutexprofilefraction; 0 means DefaultMutexFraction
	BlockRate     int // -test.blockprofilerate; 0 means DefaultBlockRate

	// Progress, if set, is called with a short line as packages are built
	// and run. It may be called from several goroutines, one call at a time.
	Progress func(msg string)
	// OnPackage, if set, is called when a package finishes or is given up
	// (with its final status), and when its build is slow
	// (StatusBuilding). Calls are serialised with Progress's.
	OnPackage func(PackageEvent)
	// SlowBuild is how long a build runs before OnPackage hears of it;
	// 0 means 5s.
	SlowBuild time.Duration
}

// defaultTestTimeout is go test's default -timeout.
const defaultTestTimeout = 10 * time.Minute

// killGrace is how long a test binary may outlive its own -test.timeout
// (after which it panics with the stacks) before it is killed.
const killGrace = time.Minute

// A testPackage is a package to profile, from go list.
type testPackage struct {
	ImportPath   string
	Dir          string
	TestGoFiles  []string
	XTestGoFiles []string
	Error        *struct{ Err string }
	DepsErrors   []*struct{ Err string }
}

// CollectTests builds a test binary for each package matched by the
// patterns and runs it with mutex and block profiling, adding the profiles
// to c. Builds run GOMAXPROCS at a time, test binaries opts.Parallel at a
// time; each runs from its package directory, in its own process group.
// A package that does not load or build, or whose tests fail, becomes an
// error of c (the profiles of a failed run are kept: they are what could be
// analysed); so does one that outlives its -timeout budget, whose finished
// invocations are kept (runBinary). A package without test files is
// skipped, as go test skips it.
//
// When ctx is done, the running binaries are stopped and CollectTests
// returns with the packages that finished in c, and an error of c for each
// that did not ("not finished: interrupted"): the caller can still report
// them. It returns an error only if nothing could be attempted at all.
func CollectTests(ctx context.Context, c *Collection, opts TestOptions) error {
	tmp, err := os.MkdirTemp(os.Getenv("GOTMPDIR"), "lockaudit-profile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	workDir := filepath.Join(tmp, "gowork") // GOTMPDIR of the go commands: removed however they end
	if err := os.Mkdir(workDir, 0o700); err != nil {
		return err
	}
	pr := newProgress(opts.Progress, opts.OnPackage)

	pkgs, err := listTestPackages(ctx, c, opts, workDir)
	if err != nil {
		return err
	}
	var runnable []*testPackage
	for _, p := range pkgs {
		if len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 {
			pr.event(PackageEvent{Package: p.ImportPath, Status: StatusNoTestFiles})
			continue
		}
		runnable = append(runnable, p)
	}
	if len(runnable) == 0 && len(pkgs) > 0 {
		c.addError("", "no package matched has test files: nothing to profile")
	}

	r := &testRunner{
		ctx: ctx, c: c, opts: opts, workDir: workDir, pr: pr,
		builds: make(chan int, runtime.GOMAXPROCS(0)),
		runs:   make(chan int, max(opts.Parallel, 1)),
	}
	var wg sync.WaitGroup
	pr.printf("building %d test binaries", len(runnable))
	for i, p := range runnable {
		wg.Go(func() {
			ev := r.profile(p, filepath.Join(tmp, binaryName(i, p.ImportPath)))
			if ev.Status != StatusOK && ev.Status != StatusNoTests {
				c.addError(ev.Package, "%s", ev.Message)
			}
			pr.event(ev)
		})
	}
	wg.Wait()
	return nil
}

// A testRunner builds and runs the test binaries of one CollectTests call.
type testRunner struct {
	ctx     context.Context
	c       *Collection
	opts    TestOptions
	workDir string
	pr      *progress
	builds  chan int // semaphore of concurrent builds
	runs    chan int // semaphore of concurrent test binaries
}

// profile builds and runs one package's test binary and says how it ended.
func (r *testRunner) profile(p *testPackage, bin string) PackageEvent {
	interrupted := PackageEvent{Package: p.ImportPath, Status: StatusInterrupted, Message: "not finished: interrupted"}
	r.builds <- 1
	if r.ctx.Err() != nil {
		<-r.builds
		return interrupted
	}
	err := r.build(p, bin)
	<-r.builds
	switch {
	case r.ctx.Err() != nil:
		return interrupted
	case err != nil:
		return PackageEvent{Package: p.ImportPath, Status: StatusBuildFailed, Message: err.Error()}
	}
	r.runs <- 1
	defer func() { <-r.runs }()
	if r.ctx.Err() != nil {
		return interrupted
	}
	r.pr.printf("running %s", p.ImportPath)
	ev := runTestBinary(r.ctx, r.c, r.opts, p, bin)
	if ev.Status == StatusInterrupted {
		return interrupted
	}
	return ev
}

// build builds one test binary, telling the progress when it is slow.
func (r *testRunner) build(p *testPackage, bin string) error {
	slow := r.opts.SlowBuild
	if slow <= 0 {
		slow = defaultSlowBuild
	}
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- buildTestBinary(r.ctx, r.opts, r.workDir, p, bin) }()
	timer := time.NewTimer(slow)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		r.pr.event(PackageEvent{Package: p.ImportPath, Status: StatusBuilding, Elapsed: time.Since(start)})
		return <-done
	}
}

// listTestPackages resolves the patterns with go list -e, recording the
// packages that cannot be loaded as errors of c.
func listTestPackages(ctx context.Context, c *Collection, opts TestOptions, workDir string) ([]*testPackage, error) {
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,TestGoFiles,XTestGoFiles,Error,DepsErrors"}, opts.BuildFlags...)
	args = append(args, opts.Patterns...)
	var stdout, stderr bytes.Buffer
	cmd := goCommand(ctx, opts.Dir, workDir, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := procgroup.Run(ctx, cmd)
	if ctx.Err() != nil {
		return nil, errors.New("interrupted")
	}
	var pkgs []*testPackage
	dec := json.NewDecoder(&stdout)
	for {
		p := new(testPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("parsing go list output: %v", err)
		}
		switch {
		case p.Error != nil:
			c.addError(p.ImportPath, "%s", p.Error.Err)
		case len(p.DepsErrors) > 0:
			c.addError(p.ImportPath, "%s", p.DepsErrors[0].Err)
		default:
			pkgs = append(pkgs, p)
		}
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "go: downloading "):
		case noMatchRE.MatchString(line):
			c.addError(noMatchRE.FindStringSubmatch(line)[1], "pattern matched no packages")
		default:
			c.addError("", "%s", strings.TrimPrefix(line, "go: "))
		}
	}
	if runErr != nil && len(pkgs) == 0 && stderr.Len() == 0 {
		return nil, fmt.Errorf("go list: %v", runErr)
	}
	return pkgs, nil
}

// noMatchRE matches go list's warning for a pattern that matches nothing.
var noMatchRE = regexp.MustCompile(`^go: warning: "(.*)" matched no packages$`)

// goCommand returns a go command running in dir with GOTMPDIR=workDir, in
// its own process group.
func goCommand(ctx context.Context, dir, workDir string, args ...string) *exec.Cmd {
	cmd := procgroup.Command(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTMPDIR="+workDir)
	return cmd
}

// binaryName returns a file name for the i'th package's test binary,
// unique even when two packages share their last path element.
func binaryName(i int, importPath string) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, importPath)
	return fmt.Sprintf("%03d-%s.test", i, clean)
}

// buildTestBinary runs go test -c for one package.
func buildTestBinary(ctx context.Context, opts TestOptions, workDir string, p *testPackage, bin string) error {
	args := append([]string{"test", "-c", "-o", bin}, opts.BuildFlags...)
	args = append(args, p.ImportPath)
	var out bytes.Buffer
	cmd := goCommand(ctx, opts.Dir, workDir, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := procgroup.Run(ctx, cmd); err != nil {
		return fmt.Errorf("build failed: %s", buildErrorSummary(out.String(), err))
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("go test -c wrote no test binary")
	}
	return nil
}

// buildErrorSummary keeps the compiler's error lines of a failed build.
func buildErrorSummary(out string, err error) string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "FAIL") {
			continue
		}
		lines = append(lines, line)
		if len(lines) == 3 {
			break
		}
	}
	if len(lines) == 0 {
		return err.Error()
	}
	return strings.Join(lines, "; ")
}

// timedOut reports whether a test binary's output is the testing
// package's -test.timeout panic, which writes no profile.
func timedOut(out string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "panic: test timed out after ") {
			return true
		}
	}
	return false
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// testFailureSummary describes a failed test binary on one line from its
// output: the failed tests, or the panic, or the last line it printed.
func testFailureSummary(out string, err error) string {
	var failed []string
	var panicLine, last string
	for _, line := range strings.Split(out, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			continue
		case strings.HasPrefix(trimmed, "--- FAIL: "):
			name := strings.TrimPrefix(trimmed, "--- FAIL: ")
			if i := strings.Index(name, " ("); i >= 0 {
				name = name[:i]
			}
			failed = append(failed, name)
		case panicLine == "" && strings.HasPrefix(trimmed, "panic: "):
			panicLine = trimmed
		}
		if trimmed != "FAIL" && !strings.HasPrefix(trimmed, "exit status") {
			last = trimmed
		}
	}
	switch {
	case panicLine != "":
		return "test binary panicked: " + strings.TrimPrefix(panicLine, "panic: ")
	case len(failed) > 0:
		more := ""
		if len(failed) > 5 {
			more = fmt.Sprintf(" and %d more", len(failed)-5)
			failed = failed[:5]
		}
		return "tests failed: " + strings.Join(failed, ", ") + more
	case last != "":
		return fmt.Sprintf("test binary failed (%v): %s", err, last)
	}
	return fmt.Sprintf("test binary failed: %v", err)
}

// A headBuffer keeps the first max bytes written to it and discards the
// rest: test output is for error messages, and must not grow without bound.
type headBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *headBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *headBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// progress serialises progress lines and package events.
type progress struct {
	mu      sync.Mutex
	fn      func(string)
	onEvent func(PackageEvent)
}

func newProgress(fn func(string), onEvent func(PackageEvent)) *progress {
	return &progress{fn: fn, onEvent: onEvent}
}

func (p *progress) printf(format string, args ...any) {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	//lockaudit:ignore heldcall the lock exists to serialise the lines fn prints
	p.fn(fmt.Sprintf(format, args...))
}

func (p *progress) event(ev PackageEvent) {
	if p.onEvent == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	//lockaudit:ignore heldcall the lock exists to serialise the lines onEvent prints
	p.onEvent(ev)
}
