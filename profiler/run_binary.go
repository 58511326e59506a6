package profiler

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/internal/procgroup"
)

// A test binary runs in invocations: the tests in one, then each
// benchmark in its own. The testing package stops its -test.timeout alarm
// before the benchmarks, and a binary stopped from outside writes no
// profile at all; one invocation per benchmark keeps every benchmark that
// finished within the package's budget when a later one does not.

// An invocation is one run of a test binary.
type invocation struct {
	name       string // "tests", or the benchmark's name
	run, bench string // -test.run and -test.bench
}

// invocations lists the runs of a package's binary: the tests (unless
// -run matches nothing and there are benchmarks), then each top-level
// benchmark that -bench selects, found with -test.list. When the list
// cannot be had, one invocation runs everything, as go test would.
func invocations(ctx context.Context, opts TestOptions, p *testPackage, bin string) []invocation {
	all := []invocation{{name: "tests and benchmarks", run: opts.Run, bench: opts.Bench}}
	if opts.Bench == "" {
		return []invocation{{name: "tests", run: opts.Run}}
	}
	top, rest := splitBench(opts.Bench)
	cmd := procgroup.Command(ctx, bin, "-test.list", top)
	cmd.Dir = p.Dir
	out, err := cmd.Output()
	if err != nil {
		return all
	}
	var benches []invocation
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if !benchName.MatchString(name) {
			continue
		}
		bench := "^" + regexp.QuoteMeta(name) + "$"
		if rest != "" {
			bench += "/" + rest
		}
		benches = append(benches, invocation{name: name, run: "^$", bench: bench})
	}
	if opts.Run == "^$" && len(benches) > 0 {
		return benches
	}
	return append([]invocation{{name: "tests", run: opts.Run, bench: ""}}, benches...)
}

// benchName matches a benchmark's name in -test.list output.
var benchName = regexp.MustCompile(`^Benchmark[\p{L}\p{N}_]*$`)

// splitBench splits a -bench pattern into its top-level part and the rest,
// at the first slash outside brackets and parentheses, as the testing
// package matches levels.
func splitBench(pattern string) (top, rest string) {
	depth := 0
	for i, r := range pattern {
		switch r {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '/':
			if depth == 0 {
				return pattern[:i], pattern[i+1:]
			}
		}
	}
	return pattern, ""
}

// invocationResult is how one invocation ended.
type invocationResult struct {
	err      error
	out      string
	timedOut bool // its deadline passed (or the tests' alarm fired)
	profiles bool // it wrote profiles, now in the collection
}

// runTestBinary runs one package's invocations within its -timeout
// budget, adds their profiles to c and says how the package ended.
func runTestBinary(ctx context.Context, c *Collection, opts TestOptions, p *testPackage, bin string) PackageEvent {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = defaultTestTimeout
	}
	start := time.Now()
	deadline := start.Add(timeout)
	ev := PackageEvent{Package: p.ImportPath, Status: StatusOK}
	invs := invocations(ctx, opts, p, bin)
	var failures, notRun []string
	var timedOutIn string
	got := false
	for i, inv := range invs {
		remaining := time.Until(deadline)
		if timedOutIn != "" || remaining <= 0 {
			notRun = append(notRun, inv.name)
			continue
		}
		r := runInvocation(ctx, c, opts, p, bin, i, inv, remaining, &ev)
		if ctx.Err() != nil {
			ev.Status, ev.Elapsed = StatusInterrupted, time.Since(start)
			return ev
		}
		got = got || r.profiles
		switch {
		case r.timedOut:
			timedOutIn = inv.name
		case r.err != nil:
			failures = append(failures, testFailureSummary(r.out, r.err))
		}
	}
	ev.Elapsed = time.Since(start)
	if got {
		c.addSource(p.ImportPath)
	}
	switch {
	case timedOutIn != "":
		ev.Status = StatusTimedOut
		what := "not finished"
		if got {
			what = "partly profiled"
		}
		ev.Message = fmt.Sprintf("%s: %s timed out after the package's -timeout %v", what, timedOutIn, timeout)
		if len(notRun) > 0 {
			ev.Message += "; not run: " + strings.Join(notRun, ", ")
		}
	case len(failures) > 0:
		ev.Status = StatusFailed
		ev.Message = strings.Join(failures, "; ")
	case !got:
		ev.Status = StatusNoTests
		ev.Message = "no profile written: the binary ran no test (a TestMain that exits early?)"
	}
	return ev
}

// runInvocation runs invocation i of a binary within remaining, and adds
// what it wrote to c and its contention delays to ev.
func runInvocation(ctx context.Context, c *Collection, opts TestOptions, p *testPackage, bin string, i int, inv invocation, remaining time.Duration, ev *PackageEvent) invocationResult {
	base := fmt.Sprintf("%s.%d", bin, i)
	mutexFile, blockFile, cpuFile, traceFile := base+".mutex.pb.gz", base+".block.pb.gz", base+".cpu.pb.gz", base+".trace"
	defer os.Remove(traceFile) // it can be large: do not keep it until the end
	args := []string{
		"-test.cpuprofile=" + cpuFile, // what lock holders do while they hold (holding.go)
		"-test.count=" + strconv.Itoa(max(opts.Count, 1)),
		"-test.mutexprofile=" + mutexFile,
		"-test.blockprofile=" + blockFile,
		"-test.mutexprofilefraction=" + strconv.Itoa(orDefault(opts.MutexFraction, DefaultMutexFraction)),
		"-test.blockprofilerate=" + strconv.Itoa(orDefault(opts.BlockRate, DefaultBlockRate)),
	}
	// The tests get the testing package's own alarm (it panics with every
	// goroutine's stack) and a grace period after it; benchmarks have no
	// alarm, so the deadline itself stops them.
	limit := remaining
	if inv.bench == "" || inv.run != "^$" {
		args = append(args, "-test.timeout="+remaining.Round(time.Millisecond).String())
		limit += killGrace
	}
	if opts.Trace {
		args = append(args, "-test.trace="+traceFile)
	}
	if inv.run != "" {
		args = append(args, "-test.run="+inv.run)
	}
	if inv.bench != "" {
		args = append(args, "-test.bench="+inv.bench)
		if opts.Benchtime != "" {
			args = append(args, "-test.benchtime="+opts.Benchtime)
		}
	}
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	out := &headBuffer{max: 1 << 20}
	cmd := procgroup.Command(runCtx, bin, args...)
	cmd.Dir = p.Dir
	cmd.Stdout, cmd.Stderr = out, out
	err := procgroup.Run(runCtx, cmd)
	r := invocationResult{err: err, out: out.String()}
	if ctx.Err() != nil {
		return r // interrupted: its profiles were never written
	}
	if runCtx.Err() != nil || err != nil && timedOut(r.out) {
		r.timedOut = true
		return r
	}
	c.addBenchResults(parseBenchResults(p.ImportPath, r.out))
	for _, f := range []struct {
		kind  Kind
		name  string
		delay *time.Duration
	}{{Mutex, mutexFile, &ev.Mutex}, {Block, blockFile, &ev.Block}, {CPU, cpuFile, nil}} {
		prof, rerr := readProfileFile(f.name, Limits{})
		if rerr != nil {
			if err == nil && !errors.Is(rerr, os.ErrNotExist) {
				c.addError(p.ImportPath, "reading its %s profile: %v", f.kind, rerr)
			}
			continue
		}
		c.add(f.kind, prof)
		if f.delay != nil {
			*f.delay += contentionDelay(f.kind, prof)
		}
		r.profiles = true
	}
	if opts.Trace {
		set, capped, terr := readTraceFile(traceFile, opts.Limits)
		switch {
		case terr == nil:
			c.addWaits(p.ImportPath, set, capped)
		case !errors.Is(terr, os.ErrNotExist):
			c.addError(p.ImportPath, "reading its execution trace: %v", terr)
		}
	}
	return r
}
