package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/profiler"
)

// staticFindings runs lockaudit check on the patterns, in this process and
// with check's own defaults, and returns its findings for the profile join,
// with absolute paths resolved against the report root. Packages check
// could not analyse come back as errors.
func staticFindings(ctx context.Context, patterns []string, root string) ([]profiler.StaticFinding, []report.PackageError) {
	var out, errOut bytes.Buffer
	// The advisory categories (shardlock/global-map) and the plausible
	// findings (notes) explain hotspots: DESIGN §2 has them on when joined
	// with a profile.
	args := append([]string{"-format", "json", "-severity", "note", "-enable", joinRules()}, patterns...)
	code := runCheckContext(ctx, args, &out, &errOut)
	var rep struct {
		Findings []profiler.StaticFinding `json:"findings"`
		Errors   []report.PackageError    `json:"errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		if ctx.Err() != nil {
			return nil, []report.PackageError{{Message: "interrupted before it finished: no findings joined"}}
		}
		msg := report.OneLine(errOut.String())
		if msg == "" {
			msg = fmt.Sprintf("exit status %d, no report: %v", code, err)
		}
		return nil, []report.PackageError{{Message: msg}}
	}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		f.Path = f.File
		if !filepath.IsAbs(f.Path) {
			f.Path = filepath.Join(root, filepath.FromSlash(f.File))
		}
	}
	return rep.Findings, rep.Errors
}

// runCheckContext runs check's flags and patterns like runCheck, but under
// ctx instead of its own signal handling.
func runCheckContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var opts checkOptions
	fs := newCheckFlags(&opts)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	c, err := newChecker(&opts, fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	code, err := c.run(ctx, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "lockaudit: %v\n", err)
		return exitError
	}
	return code
}

// joinRules lists every rule of this build with its default-off categories,
// for the profile join.
func joinRules() string {
	var rules []string
	for _, a := range analyzers() {
		rules = append(rules, a.Name)
	}
	for key := range defaultOff {
		rules = append(rules, key)
	}
	sort.Strings(rules)
	return strings.Join(rules, ",")
}
