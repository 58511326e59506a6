package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/lockaudit/lockaudit/profiler"
)

// staticFindings runs lockaudit check on the patterns, in this process and
// with check's own defaults, and returns its findings for the profile join,
// with absolute paths resolved against the report root. Packages check
// could not analyse come back as errors.
func staticFindings(ctx context.Context, patterns []string, root string) ([]profiler.StaticFinding, []PackageError) {
	var out, errOut bytes.Buffer
	args := append([]string{"-format", "json"}, patterns...)
	code := runCheckContext(ctx, args, &out, &errOut)
	if ctx.Err() != nil {
		return nil, nil
	}
	var rep struct {
		Findings []profiler.StaticFinding `json:"findings"`
		Errors   []PackageError           `json:"errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		msg := oneLine(errOut.String())
		if msg == "" {
			msg = fmt.Sprintf("exit status %d, no report: %v", code, err)
		}
		return nil, []PackageError{{"", msg}}
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
