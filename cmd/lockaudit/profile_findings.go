package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/internal/driver"
	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/profiler"
)

// staticFindings runs lockaudit check's analysis on the patterns, in this
// process and with check's own defaults, and returns its findings for the
// profile join, with absolute paths resolved against the report root.
// Packages check could not analyse come back as errors.
func staticFindings(ctx context.Context, patterns []string, root string) ([]profiler.StaticFinding, []report.PackageError) {
	// The advisory categories (shardlock/global-map) and the plausible
	// findings (notes) explain hotspots: DESIGN §2 has them on when joined
	// with a profile.
	args := append([]string{"-format", "json", "-severity", "note", "-enable", joinRules()}, patterns...)
	res, err := analyseForJoin(ctx, args)
	if ctx.Err() != nil {
		return nil, []report.PackageError{{Message: "interrupted before it finished: no findings joined"}}
	}
	if err != nil {
		return nil, []report.PackageError{{Message: report.OneLine("lockaudit: " + err.Error())}}
	}
	findings := make([]profiler.StaticFinding, len(res.Findings))
	for i, f := range res.Findings {
		findings[i] = profiler.StaticFinding{
			Finding: profiler.Finding{
				Rule:     f.Rule,
				Category: f.Category,
				File:     f.File,
				Line:     f.Line,
				Message:  f.Message,
			},
			Function: f.Function,
			Package:  f.Package,
			Lock:     f.Lock,
			Path:     f.File,
		}
		for _, r := range f.Related {
			if f.Lock != "" && r.Message == f.Lock+" locked here" && r.File == f.File {
				findings[i].LockLine = r.Line // where the lock the finding is about is taken
				break
			}
		}
		if !filepath.IsAbs(f.File) {
			findings[i].Path = filepath.Join(root, filepath.FromSlash(f.File))
		}
	}
	return findings, res.Errors
}

// analyseForJoin runs the analysis of check with the given flags and
// patterns, under ctx.
func analyseForJoin(ctx context.Context, args []string) (*driver.Result, error) {
	var opts checkOptions
	fs := newCheckFlags(&opts)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	c, err := newChecker(&opts, fs.Args())
	if err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return c.analyse(ctx, cwd)
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
