package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/lockaudit/lockaudit/internal/report"
)

// The JSON written by unitchecker -json (x/tools
// internal/analysis/driverutil/print.go): for each vetted package one object
//
//	{"<package ID>": {"<analyzer>": [<diagnostic>...] | {"error": "..."}}}
//
// and "{}" for a package without diagnostics. The go command concatenates
// the objects of all packages on its stdout.
type (
	jsonDiagnostic struct {
		Category       string             `json:"category"`
		Posn           string             `json:"posn"`
		End            string             `json:"end"`
		Message        string             `json:"message"`
		SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes"`
		Related        []jsonRelatedInfo  `json:"related"`
	}
	jsonSuggestedFix struct {
		Message string         `json:"message"`
		Edits   []jsonTextEdit `json:"edits"`
	}
	jsonTextEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelatedInfo struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
)

// A vetDiagnostic is one diagnostic from go vet's JSON with the package and
// analyzer that reported it.
type vetDiagnostic struct {
	Package  string // import path
	Analyzer string
	jsonDiagnostic
}

// vetResult is what one go vet run produced.
type vetResult struct {
	diags  []vetDiagnostic
	errors []report.PackageError
	failed map[string]bool // import paths under a "# pkg" error header
}

// runVet runs go vet with tool as the vet tool on the named packages
// and collects diagnostics (stdout) and errors (stderr). pkgDir maps a
// directory to the import path of the package in it, to attribute errors the
// go command prints without a "# pkg" header.
func runVet(ctx context.Context, env goEnv, tool string, flags, pkgs []string, pkgDir map[string]string) (*vetResult, error) {
	args := append([]string{"vet", "-vettool=" + tool, "-json"}, flags...)
	args = append(args, pkgs...)

	pr, pw := io.Pipe()
	var (
		wg      sync.WaitGroup
		diags   []vetDiagnostic
		jsonErr []report.PackageError
		decErr  error
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		diags, jsonErr, decErr = parseVetJSON(pr)
		_, _ = io.Copy(io.Discard, pr) // drain after a decoding error; a read error here has nothing left to report
	}()
	var stderr bytes.Buffer
	runErr := runGoCommand(ctx, env, pw, &stderr, args...)
	pw.Close()
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}

	res := &vetResult{diags: diags, failed: make(map[string]bool)}
	res.errors = append(res.errors, jsonErr...)
	if decErr != nil {
		res.errors = append(res.errors, report.PackageError{Message: "reading go vet output: " + decErr.Error()})
	}
	for _, e := range parseVetStderr(stderr.String(), func(file string) string {
		return pkgDir[filepath.Dir(absPath(file, env.dir))]
	}) {
		res.errors = append(res.errors, e.PackageError)
		if e.header {
			res.failed[e.Package] = true
		}
	}
	if runErr != nil {
		var exit *exec.ExitError
		if !errors.As(runErr, &exit) {
			return nil, fmt.Errorf("running go vet: %v", runErr)
		}
		if len(res.errors) == 0 {
			res.errors = append(res.errors, report.PackageError{Message: "go vet failed: " + runErr.Error()})
		}
	}
	return res, nil
}

// parseVetJSON decodes the stream of concatenated JSON objects that go vet
// -json writes. Analyzer failures ({"error": "..."} in place of the
// diagnostics) become errors.
func parseVetJSON(r io.Reader) ([]vetDiagnostic, []report.PackageError, error) {
	var (
		diags []vetDiagnostic
		errs  []report.PackageError
	)
	dec := json.NewDecoder(r)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			return diags, errs, nil
		} else if err != nil {
			return diags, errs, err
		}
		for _, id := range sortedKeysOf(tree) {
			pkg := packageOfID(id)
			for _, analyzer := range sortedKeysOf(tree[id]) {
				raw := tree[id][analyzer]
				var list []jsonDiagnostic
				if err := json.Unmarshal(raw, &list); err == nil {
					for _, d := range list {
						diags = append(diags, vetDiagnostic{pkg, analyzer, d})
					}
					continue
				}
				var failure struct {
					Error string `json:"error"`
				}
				if err := json.Unmarshal(raw, &failure); err != nil {
					return diags, errs, fmt.Errorf("package %s, analyzer %s: unexpected JSON %.100s", id, analyzer, raw)
				}
				errs = append(errs, report.PackageError{Package: pkg, Message: analyzer + ": " + report.OneLine(failure.Error)})
			}
		}
	}
}

// packageOfID returns the import path of a vet package ID: the ID is the
// import path, possibly followed by a test-variant suffix ("p [p.test]").
func packageOfID(id string) string {
	if i := strings.Index(id, " ["); i >= 0 {
		return id[:i]
	}
	return strings.TrimSpace(id)
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// A stderrError is an error parsed from go vet's stderr.
type stderrError struct {
	report.PackageError
	header bool // it came under a "# pkg" header
}

// fileLineColRE matches a compiler-style "file.go:line:col: " prefix.
var fileLineColRE = regexp.MustCompile(`^(.+?\.go):\d+(?::\d+)?: `)

// parseVetStderr parses the go command's stderr into one error per package.
//
// The go command prints the output of a failed action under a header naming
// the package, "# example.com/p"; a test variant gets a second header line
// "# [example.com/p]". The lines below are type errors (one per line,
// continuation lines indented), a vet tool's log output, or a panic with its
// stack trace (which ends at the first blank line). Each group becomes one
// error whose message is its errors joined by "; ", stack traces left out.
//
// Lines outside any group (for example a test file importing a missing
// package) are errors of their own, attributed through fileToPkg to the
// package of the file they start with, if any.
func parseVetStderr(stderr string, fileToPkg func(file string) string) []stderrError {
	var (
		out     []stderrError
		cur     *stderrError
		entries []string // errors of the current group, continuation lines joined
		ended   bool     // a blank line ended the current group's useful part
	)
	flush := func() {
		if cur != nil && len(entries) > 0 {
			cur.Message = strings.Join(entries, "; ")
			out = append(out, *cur)
		}
		cur, entries, ended = nil, nil, false
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "# ") {
			name := strings.TrimSpace(line[2:])
			if cur != nil && cur.header && len(entries) == 0 && strings.HasPrefix(name, "[") {
				continue // second header line of a test variant
			}
			flush()
			cur = &stderrError{PackageError: report.PackageError{Package: packageOfID(name)}, header: true}
			continue
		}
		if strings.TrimSpace(line) == "" {
			if cur != nil && cur.header {
				ended = len(entries) > 0
			} else {
				flush()
			}
			continue
		}
		if ended {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(entries) > 0 {
				entries[len(entries)-1] += " " + strings.TrimSpace(line)
				continue
			}
		}
		if cur == nil || !cur.header {
			if isGoProgress(line) {
				continue
			}
			// A header-less error: one group per error.
			flush()
			pkg := ""
			if m := fileLineColRE.FindStringSubmatch(line); m != nil && fileToPkg != nil {
				pkg = fileToPkg(m[1])
			}
			cur = &stderrError{PackageError: report.PackageError{Package: pkg}}
		}
		entries = append(entries, strings.TrimSpace(line))
	}
	flush()
	return out
}
