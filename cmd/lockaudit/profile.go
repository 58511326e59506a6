package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/internal/driver"
	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/profiler"
)

// profileOptions are the flags of lockaudit profile (DESIGN §6).
type profileOptions struct {
	run, bench, benchtime string
	count                 int
	timeout               time.Duration
	parallel              int
	urls                  repeatedFlag
	seconds               int
	inputs                repeatedFlag
	top                   int
	format                string
	outDir                string
	failOver              time.Duration
	baseline              string
	maxIncrease           float64
	trace                 bool
	traceLimitMB          int
}

// repeatedFlag is a repeatable string flag whose values are kept whole
// (URLs and file names may contain commas).
type repeatedFlag []string

func (r *repeatedFlag) String() string { return strings.Join(*r, " ") }

func (r *repeatedFlag) Set(v string) error {
	*r = append(*r, v)
	return nil
}

// newProfileFlags returns the flag set of profile bound to opts.
func newProfileFlags(opts *profileOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.run, "run", "", "run only the tests matching `regexp` (go test -run)")
	fs.StringVar(&opts.bench, "bench", ".", "run the benchmarks matching `regexp` (go test -bench)")
	fs.StringVar(&opts.benchtime, "benchtime", "1s", "benchmark `duration` or NUMx iterations (go test -benchtime)")
	fs.IntVar(&opts.count, "count", 1, "run each test and benchmark `n` times")
	fs.DurationVar(&opts.timeout, "timeout", 10*time.Minute, "give each package `duration` to run its tests and benchmarks (its budget)")
	fs.IntVar(&opts.parallel, "p", 1, "run `n` test binaries at once (builds always run in parallel)")
	fs.Var(&opts.urls, "url", "pull mutex, block and fgprof profiles from the service at `URL` (repeatable)")
	fs.IntVar(&opts.seconds, "seconds", 10, "profiling window for -url, in `seconds`")
	fs.Var(&opts.inputs, "in", "read an existing mutex, block or fgprof profile `file` (repeatable)")
	fs.BoolVar(&opts.trace, "trace", true, "record execution traces and report each lock site's wait percentiles and writer convoys")
	fs.IntVar(&opts.traceLimitMB, "trace-limit", 512, "read at most `MiB` of each execution trace")
	fs.IntVar(&opts.top, "top", 10, "show the top `n` hotspots of each kind (0: all)")
	fs.StringVar(&opts.format, "format", "text", "output format: text, json, markdown or html (one self-contained file)")
	fs.StringVar(&opts.outDir, "o", "", "write the merged mutex.pb.gz, block.pb.gz and cpu.pb.gz (and fgprof.pb.gz) to `dir`")
	fs.DurationVar(&opts.failOver, "fail-over", 0, "gate: exit 1 when a hotspot's delay exceeds `duration`")
	fs.StringVar(&opts.baseline, "baseline", "", "gate: compare total contention with the JSON report in `file`")
	fs.Float64Var(&opts.maxIncrease, "max-increase", 10, "gate: with -baseline, exit 1 when total contention grew more than `pct` percent")
	return fs
}

const profileUsageHeader = `usage: lockaudit profile [flags] [packages]

Profile ranks the code that causes lock contention at run time and attaches
lockaudit check's findings to it: "hot and explained".

Without -url or -in it builds a test binary per package (default ./...),
runs its tests and benchmarks with mutex and block profiling, merges the
profiles per kind and ranks the hotspots. With -url (live services serving
/debug/pprof/mutex and /block, see profiler.Handler) or -in (profile files)
it ranks those instead, and the packages, if given, are only analysed
statically for the join.

Each test binary (and each -url window) also records an execution trace:
the waits table ranks the lock sites by p99 wait, with p50, p90 and max,
and names RWMutex writer convoys. -trace=false turns it off.

The mutex profile charges the lock holder (stack at Unlock), the block
profile the waiter (stack at Lock, channel operation, Wait). A hotspot is
the first frame outside sync, runtime, internal and the test harness.

Exit status: 0 done, 1 a gate (-fail-over, -baseline) failed, 2 something
could not be profiled (a package that does not build, a failing test, a
package that outlives its -timeout budget, an unreachable URL, a bad file);
the report still contains everything that could be. Packages without test
files are skipped. Each package's line (ok, FAIL or ?, wall time, delays)
goes to stderr as it ends. Benchmarks run one per invocation, so those
that finish within the budget are kept. Interrupted (SIGINT, SIGTERM), it
stops the test binaries, reports the packages that finished, names the
others and exits 2.

Flags:
`

// printProfileUsage prints the help of profile.
func printProfileUsage(w io.Writer, fs *flag.FlagSet) {
	printUsage(w, profileUsageHeader, fs)
}

// runProfile runs lockaudit profile and returns the exit code.
func runProfile(args []string, stdout, stderr io.Writer) int {
	var opts profileOptions
	fs := newProfileFlags(&opts)
	if code, ok := parseFlags("profile", fs, args, stdout, stderr, printProfileUsage); !ok {
		return code
	}
	patterns := fs.Args()
	baseline, err := validateProfile(fs, &opts, patterns)
	if err != nil {
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	ctx, stop := interruptContext()
	defer stop()
	code, err := profileRun(ctx, &opts, patterns, baseline, stdout, stderr)
	if err != nil {
		if ctx.Err() != nil {
			err = driver.ErrInterrupted
		}
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	return code
}

// validateProfile checks the options; every error is a usage error. It
// returns the baseline report, if any.
func validateProfile(fs *flag.FlagSet, opts *profileOptions, patterns []string) (*profiler.Report, error) {
	if err := validateCommon(patterns, opts.format, "text", "json", "markdown", "html"); err != nil {
		return nil, err
	}
	switch {
	case opts.count < 1:
		return nil, fmt.Errorf("-count must be at least 1")
	case opts.parallel < 1:
		return nil, fmt.Errorf("-p must be at least 1")
	case opts.seconds < 1:
		return nil, fmt.Errorf("-seconds must be at least 1")
	case opts.top < 0:
		return nil, fmt.Errorf("-top must not be negative")
	case opts.traceLimitMB < 1:
		return nil, fmt.Errorf("-trace-limit must be at least 1")
	case opts.timeout < 0 || opts.failOver < 0:
		return nil, fmt.Errorf("-timeout and -fail-over must not be negative")
	case opts.maxIncrease < 0:
		return nil, fmt.Errorf("-max-increase must not be negative")
	}
	maxIncreaseSet := false
	fs.Visit(func(f *flag.Flag) { maxIncreaseSet = maxIncreaseSet || f.Name == "max-increase" })
	if opts.baseline == "" {
		if maxIncreaseSet {
			return nil, fmt.Errorf("-max-increase needs -baseline")
		}
		return nil, nil
	}
	f, err := os.Open(opts.baseline)
	if err != nil {
		return nil, fmt.Errorf("-baseline: %v", err)
	}
	defer f.Close()
	base, err := profiler.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("-baseline %s: not a lockaudit profile JSON report: %v", opts.baseline, err)
	}
	return base, nil
}

// profileRun collects, ranks, joins and reports; it returns the exit code,
// or an error if nothing could be reported at all.
func profileRun(ctx context.Context, opts *profileOptions, patterns []string, baseline *profiler.Report, stdout, stderr io.Writer) (int, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	live := len(opts.urls) > 0 || len(opts.inputs) > 0
	if len(patterns) == 0 && !live {
		patterns = []string{"./..."}
	}
	progress := progressFunc(stderr)
	events := newPackageLog(stderr)
	limits := profiler.Limits{MaxTraceBytes: int64(opts.traceLimitMB) << 20}
	c := profiler.NewCollection()

	// The static analysis runs while test binaries build (or profiles
	// download): it shares nothing with them but the build cache.
	var (
		wg        sync.WaitGroup
		findings  []profiler.StaticFinding
		checkErrs []report.PackageError
	)
	if len(patterns) > 0 {
		wg.Go(func() {
			progress("analysing " + strings.Join(patterns, " ") + " with lockaudit check")
			findings, checkErrs = staticFindings(ctx, patterns, report.NewPaths(cwd).Root)
		})
	}
	if live {
		profiler.CollectFiles(c, opts.inputs, limits)
		if len(opts.urls) > 0 {
			progress(fmt.Sprintf("profiling %d service(s) for %ds", len(opts.urls), opts.seconds))
			profiler.CollectURLs(ctx, c, opts.urls, profiler.URLOptions{Seconds: opts.seconds, Trace: opts.trace, Limits: limits})
		}
	} else {
		err = profiler.CollectTests(ctx, c, profiler.TestOptions{
			Dir:       cwd,
			Patterns:  patterns,
			Run:       opts.run,
			Bench:     opts.bench,
			Benchtime: opts.benchtime,
			Count:     opts.count,
			Timeout:   opts.timeout,
			Parallel:  opts.parallel,
			Progress:  progress,
			OnPackage: events.print,
			Trace:     opts.trace,
			Limits:    limits,
		})
	}
	wg.Wait()
	if err != nil {
		return 0, err
	}
	// check's errors, for packages the collectors did not already report
	// (a bad pattern or a package that does not build fails both).
	reported := make(map[string]bool)
	for _, e := range c.Errors() {
		reported[e.Source] = true
	}
	for _, e := range checkErrs {
		if !reported[e.Package] {
			c.AddError(e.Package, "lockaudit check: "+e.Message)
		}
	}
	// Interrupted, the report still holds every package that finished,
	// and the errors name the others.
	rep := profiler.BuildReport(c, profiler.ReportOptions{Top: opts.top, Findings: findings, Root: report.NewPaths(cwd).Root, Cwd: cwd})
	var out bytes.Buffer
	switch opts.format {
	case "json":
		err = rep.WriteJSON(&out)
	case "markdown":
		err = rep.WriteMarkdown(&out)
	case "html":
		err = rep.WriteHTML(&out)
	default:
		err = rep.WriteText(&out)
	}
	if err != nil {
		return 0, err
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return 0, err
	}
	if opts.outDir != "" {
		files, err := rep.WriteProfiles(opts.outDir)
		if err != nil {
			return 0, fmt.Errorf("-o: %v", err)
		}
		for _, f := range files {
			progress("wrote " + f)
		}
	}
	for _, e := range rep.Errors {
		if e.Source == "" {
			fmt.Fprintf(stderr, "lockaudit: %s\n", e.Message)
		} else {
			fmt.Fprintf(stderr, "lockaudit: %s: %s\n", e.Source, e.Message)
		}
	}
	gateFailed := false
	if opts.failOver > 0 {
		for _, msg := range rep.FailOver(opts.failOver) {
			fmt.Fprintf(stderr, "lockaudit: gate: %s\n", msg)
			gateFailed = true
		}
	}
	if baseline != nil {
		if msg, failed := rep.ContentionGrowth(baseline, opts.maxIncrease); failed {
			fmt.Fprintf(stderr, "lockaudit: gate: %s\n", msg)
			gateFailed = true
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "lockaudit: interrupted: %s\n", events.summary())
		return exitError, nil
	}
	switch {
	case len(rep.Errors) > 0:
		return exitError, nil
	case gateFailed:
		return exitFindings, nil
	}
	return exitClean, nil
}

// progressFunc returns a function printing progress lines on stderr when it
// is a terminal, and one doing nothing otherwise.
func progressFunc(stderr io.Writer) func(string) {
	f, ok := stderr.(*os.File)
	if !ok {
		return func(string) {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func(string) {}
	}
	// Each line is one Write, and an *os.File serialises concurrent
	// Writes itself: no lock is needed (and none is held across the I/O).
	// Progress is best effort: a failed write to the terminal is ignored.
	return func(msg string) {
		_, _ = f.WriteString("lockaudit: " + msg + "\n")
	}
}
