package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/internal/driver"
	"github.com/lockaudit/lockaudit/internal/fix"
	"github.com/lockaudit/lockaudit/internal/report"
)

// checkOptions are the flags of lockaudit check.
type checkOptions struct {
	format        string
	output        string
	fix           bool
	diff          bool
	baseline      string
	writeBaseline string
	enable        string
	disable       string
	tests         bool
	generated     bool
	heldcallTests bool
	shardTests    bool
	severity      string
	block         listFlag
	tags          string
	govet         bool
}

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}

// newCheckFlags returns the flag set of check bound to opts.
func newCheckFlags(opts *checkOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by runCheck, on one line
	fs.StringVar(&opts.format, "format", "text", "output format: text, json or sarif")
	fs.StringVar(&opts.output, "o", "", "write the report to `file` instead of standard output")
	fs.BoolVar(&opts.fix, "fix", false, "apply the suggested fixes (the first fix of each finding)")
	fs.BoolVar(&opts.diff, "diff", false, "print the suggested fixes as a unified diff instead of applying them")
	fs.StringVar(&opts.baseline, "baseline", "", "report only findings not recorded in baseline `file`")
	fs.StringVar(&opts.writeBaseline, "write-baseline", "", "record the current findings in baseline `file`")
	fs.StringVar(&opts.enable, "enable", "", "report only these `rules`: comma-separated rule or rule/category names")
	fs.StringVar(&opts.disable, "disable", "", "do not report these `rules`: comma-separated rule or rule/category names")
	fs.BoolVar(&opts.tests, "tests", true, "report findings in _test.go files (heldcall's only with -heldcall.tests, shardlock's above-shards only with -shardlock.tests)")
	fs.BoolVar(&opts.generated, "generated", false, "report findings in generated files too (marked // Code generated ... DO NOT EDIT.; they are fixed in their generator)")
	fs.BoolVar(&opts.heldcallTests, "heldcall.tests", false, "report heldcall findings in _test.go files too (a test usually holds a lock because the helper it calls requires it)")
	fs.BoolVar(&opts.shardTests, "shardlock.tests", false, "report shardlock's above-shards findings in _test.go files too (a test's lock above shards costs no production time)")
	fs.StringVar(&opts.severity, "severity", "warning", "lowest confidence reported: `warning` (proven findings) or note (plausible ones too)")
	fs.Var(&opts.block, "block", "extra blocking function, `name=category` (repeatable or comma-separated), e.g. 'example.com/db.(*Client).Query=db'")
	fs.StringVar(&opts.tags, "tags", "", "comma-separated build `tags` (passed to the go command)")
	fs.BoolVar(&opts.govet, "govet", false, "analyse under go vet -vettool, one process per package, rather than in this process (less memory at once, results in go's build cache, slower)")
	return fs
}

const checkUsageHeader = `usage: lockaudit check [flags] [packages]

Check analyses the packages (default ./...) and reports locks held across
blocking or foreign calls, and global locks above shards.

Exit status: 0 nothing found, 1 findings, 2 something could not be analysed
(the report still contains everything that was).

Rules: %s.
-enable limits the report to the rules and rule/categories it lists;
-disable removes rules or categories and wins over -enable. Advisory
categories (%s) are reported only when -enable lists them.

-fix applies the first suggested fix of each reported finding and reports
the findings left; -diff prints the fixes as a unified diff instead (the
findings without a fix go to stderr). -write-baseline records the findings
as accepted: that run exits 0 unless something could not be analysed.

Flags:
`

// printCheckUsage prints the help of check.
func printCheckUsage(w io.Writer, fs *flag.FlagSet) {
	printUsage(w, fmt.Sprintf(checkUsageHeader, strings.Join(sortedKeys(knownRules()), ", "), strings.Join(sortedKeys(defaultOff), ", ")), fs)
}

// validateCommon checks what check and profile share: no flag after the
// package patterns, and a -format among the subcommand's formats.
func validateCommon(patterns []string, format string, formats ...string) error {
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return fmt.Errorf("flag %s after the packages: flags must come first", p)
		}
	}
	if !slices.Contains(formats, format) {
		last := len(formats) - 1
		return fmt.Errorf("-format: unknown format %q (want %s or %s)", format, strings.Join(formats[:last], ", "), formats[last])
	}
	return nil
}

// interruptContext returns a context that the first Ctrl-C (or SIGTERM)
// cancels, so that the run stops and cleans up; a second one kills the
// process the default way.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// printUsage prints a subcommand's help: its header, then its flags.
func printUsage(w io.Writer, header string, fs *flag.FlagSet) {
	fmt.Fprint(w, header)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// parseFlags parses a subcommand's arguments. On -h it prints the help to
// stdout; on a bad flag, a one-line error to stderr. ok is false in both
// cases, and code is then the exit code.
func parseFlags(name string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer, usage func(io.Writer, *flag.FlagSet)) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitClean, true
	case errors.Is(err, flag.ErrHelp):
		usage(stdout, fs)
		return exitClean, false
	}
	fmt.Fprintf(stderr, "lockaudit: %v (see 'lockaudit %s -h')\n", err, name)
	return exitError, false
}

// knownRules returns the rule names known to this build.
func knownRules() map[string]bool {
	known := make(map[string]bool)
	for r := range ruleCategories {
		known[r] = true
	}
	for _, a := range analyzers() {
		known[a.Name] = true
	}
	return known
}

// runCheck runs lockaudit check with the given arguments and returns the
// exit code.
func runCheck(args []string, stdout, stderr io.Writer) int {
	var opts checkOptions
	fs := newCheckFlags(&opts)
	if code, ok := parseFlags("check", fs, args, stdout, stderr, printCheckUsage); !ok {
		return code
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	c, err := newChecker(&opts, patterns)
	if err != nil {
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	ctx, stop := interruptContext()
	defer stop()
	code, err := c.run(ctx, stdout, stderr)
	if err != nil {
		if ctx.Err() != nil {
			err = driver.ErrInterrupted
		}
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	return code
}

// A checker is one validated run of check.
type checker struct {
	opts     *checkOptions
	patterns []string
	cfg      driver.Config // all but Dir and Tool, which analyse fills in
	baseline map[string]bool
}

// newChecker validates the options; every error is a usage error.
func newChecker(opts *checkOptions, patterns []string) (*checker, error) {
	c := &checker{opts: opts, patterns: patterns}
	c.cfg = driver.Config{
		Analyzers:     analyzers(),
		Severity:      opts.severity,
		Tests:         opts.tests,
		Generated:     opts.generated,
		AnalyzerTests: opts.analyzerTests(),
		Tags:          opts.tags,
		VetDriver:     opts.govet,
	}
	if err := validateCommon(patterns, opts.format, "text", "json", "sarif"); err != nil {
		return nil, err
	}
	if opts.diff && opts.format != "text" {
		return nil, fmt.Errorf("-diff prints a unified diff; it cannot be combined with -format %s", opts.format)
	}
	sel, err := parseSelection(opts.enable, opts.disable, c.cfg.Analyzers)
	if err != nil {
		return nil, err
	}
	c.cfg.Selection = sel
	if _, err := confidence.Parse(opts.severity); err != nil {
		return nil, fmt.Errorf("-severity: %v", err)
	}
	if len(opts.block) > 0 {
		f, err := blockFlag(c.cfg.Analyzers)
		if err != nil {
			return nil, err
		}
		for _, b := range opts.block {
			if name, cat, ok := strings.Cut(b, "="); !ok || name == "" || cat == "" {
				return nil, fmt.Errorf("-block: %q is not name=category", b)
			}
		}
		// Validate here with the analyzer's own flag.Value, so that a bad
		// value is one usage error rather than one error per package under
		// -govet; the driver sets the flag for the run itself.
		err = f.Value.Set(strings.Join(opts.block, ","))
		driver.ResetFlag(f)
		if err != nil {
			return nil, fmt.Errorf("-block: %v", err)
		}
		c.cfg.Block = opts.block
	}
	if opts.baseline != "" {
		if c.baseline, err = report.ReadBaseline(opts.baseline); err != nil {
			return nil, fmt.Errorf("-baseline: %v", err)
		}
	}
	return c, nil
}

// blockFlag returns the heldcall analyzer's block flag (-heldcall.block for
// the vet tool).
func blockFlag(as []*analysis.Analyzer) (*flag.Flag, error) {
	for _, a := range as {
		if a.Name == "heldcall" {
			f := a.Flags.Lookup("block")
			if f == nil {
				return nil, errors.New("-block: the heldcall analyzer of this build has no block flag")
			}
			return f, nil
		}
	}
	return nil, errors.New("-block: this build has no heldcall analyzer")
}

// analyse runs the analyzers on the packages, with this executable as the
// vet tool, from directory cwd.
func (c *checker) analyse(ctx context.Context, cwd string) (*driver.Result, error) {
	tool, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("locating this executable for go vet -vettool: %v", err)
	}
	cfg := c.cfg
	cfg.Dir, cfg.Tool = cwd, tool
	return driver.Run(ctx, cfg, c.patterns)
}

// run analyses the packages, then writes the report. It returns the exit
// code, or an error if nothing could be reported at all.
func (c *checker) run(ctx context.Context, stdout, stderr io.Writer) (int, error) {
	start := time.Now()
	cwd, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	res, err := c.analyse(ctx, cwd)
	if err != nil {
		return 0, err
	}
	findings := res.Findings

	if c.opts.writeBaseline != "" {
		if err := report.WriteBaseline(c.opts.writeBaseline, findings); err != nil {
			return 0, fmt.Errorf("-write-baseline: %v", err)
		}
		fmt.Fprintf(stderr, "lockaudit: recorded %d findings in %s\n", len(findings), c.opts.writeBaseline)
	}
	if c.baseline != nil {
		findings = slices.DeleteFunc(findings, func(f report.Finding) bool { return c.baseline[f.Fingerprint] })
	}
	failing := len(findings) // findings that make the exit code 1
	if c.opts.writeBaseline != "" {
		failing = 0 // they have just been accepted
	}

	rep := &report.Report{Findings: findings, Errors: res.Errors, Rules: c.cfg.Analyzers, Version: moduleVersion(), Paths: res.Paths, Sources: res.Sources}
	var out bytes.Buffer
	switch {
	case c.opts.diff || c.opts.fix:
		fr := fix.Apply(findings, fix.Options{
			Write:      !c.opts.diff,
			Modules:    res.Modules,
			AnalysedAt: start,
			Paths:      res.Paths,
		})
		for _, msg := range fr.Notes {
			fmt.Fprintf(stderr, "lockaudit: %s\n", msg)
		}
		for _, e := range fr.Errors {
			rep.Errors = append(rep.Errors, report.PackageError{Message: e})
		}
		if c.opts.diff {
			out.WriteString(fr.Diff)
			// Findings without an applicable fix do not appear in a diff.
			// Best effort, like any diagnostic on stderr: the diff on
			// stdout is the output.
			_ = (&report.Report{Findings: fr.Unfixed, Paths: res.Paths}).WriteText(stderr)
		} else {
			rep.Findings = fr.Unfixed
			if c.opts.writeBaseline == "" {
				failing = len(fr.Unfixed)
			}
			if err := rep.Write(&out, c.opts.format); err != nil {
				return 0, err
			}
		}
	default:
		if err := rep.Write(&out, c.opts.format); err != nil {
			return 0, err
		}
	}
	if ctx.Err() != nil {
		return 0, driver.ErrInterrupted
	}
	if c.opts.output != "" {
		if err := report.WriteFileAtomic(c.opts.output, out.Bytes(), 0o666); err != nil {
			return 0, err
		}
	} else if _, err := stdout.Write(out.Bytes()); err != nil {
		return 0, err
	}
	for _, e := range rep.Errors {
		if e.Package == "" {
			fmt.Fprintf(stderr, "lockaudit: %s\n", e.Message)
		} else {
			fmt.Fprintf(stderr, "lockaudit: %s: %s\n", e.Package, e.Message)
		}
	}
	switch {
	case len(rep.Errors) > 0:
		return exitError, nil
	case failing > 0:
		return exitFindings, nil
	}
	return exitClean, nil
}

// analyzerTests names the analyzers asked to report in _test.go files too.
func (o *checkOptions) analyzerTests() []string {
	var names []string
	if o.heldcallTests {
		names = append(names, "heldcall")
	}
	if o.shardTests {
		names = append(names, "shardlock")
	}
	return names
}
