package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/lockaudit/lockaudit/internal/report"
)

// A listedPackage is the part of go list's JSON that Run uses.
type listedPackage struct {
	ImportPath   string
	Dir          string
	Error        *listError
	DepsErrors   []*listError
	Deps         []string
	TestImports  []string
	XTestImports []string
	Module       *listedModule
}

// A listedModule is go list's Module (Version and GoVersion are listed
// for the in-process driver only).
type listedModule struct {
	Path      string
	Dir       string
	Version   string
	GoVersion string
	Main      bool
}

// listError is go list's PackageError.
type listError struct {
	ImportStack []string
	Pos         string
	Err         string
}

// listFields are the fields Run asks go list for.
const listFields = "ImportPath,Dir,Error,DepsErrors,Deps,TestImports,XTestImports,Module"

// A packageList is the result of resolving the patterns.
type packageList struct {
	good   []listedPackage       // packages to analyse
	errors []report.PackageError // patterns and packages that cannot be analysed
}

// vetArgs returns the go vet arguments naming the good packages: their
// import paths, or the files themselves for a package made of .go files named
// on the command line (import path "command-line-arguments").
func (l *packageList) vetArgs(patterns []string) []string {
	var args []string
	for _, p := range l.good {
		if p.ImportPath == "command-line-arguments" {
			for _, pat := range patterns {
				if strings.HasSuffix(pat, ".go") {
					args = append(args, pat)
				}
			}
			continue
		}
		args = append(args, p.ImportPath)
	}
	return args
}

// listPackages resolves patterns with go list -e, so that a bad pattern or a
// package that cannot be loaded becomes an error entry while the others are
// still analysed (go vet itself stops at the first such problem).
func listPackages(ctx context.Context, env goEnv, buildFlags, patterns []string) (*packageList, error) {
	stdout, stderr, runErr, err := runGoList(ctx, env, buildFlags, patterns, "-json="+listFields)
	if err != nil {
		return nil, err
	}
	list, err := parseGoList(stdout, stderr)
	if err != nil {
		return nil, err
	}
	if runErr != nil && len(list.good) == 0 && len(list.errors) == 0 {
		return nil, fmt.Errorf("go list: %v", runErr)
	}
	return list, nil
}

// runGoList runs go list -e with flags, the build flags and the patterns.
// runErr is the go command's failure, which its output may explain; err is
// an interrupt.
func runGoList(ctx context.Context, env goEnv, buildFlags, patterns []string, flags ...string) (stdout io.Reader, stderr string, runErr, err error) {
	args := append(append([]string{"list", "-e"}, flags...), buildFlags...)
	args = append(args, patterns...)
	var out, errOut bytes.Buffer
	runErr = runGoCommand(ctx, env, &out, &errOut, args...)
	if ctx.Err() != nil {
		return nil, "", nil, ctx.Err()
	}
	return &out, errOut.String(), runErr, nil
}

// noMatchRE matches go list's warning for a pattern that matches nothing.
var noMatchRE = regexp.MustCompile(`^go: warning: "(.*)" matched no packages$`)

// parseGoList reads go list's JSON stream and its stderr.
func parseGoList(stdout io.Reader, stderr string) (*packageList, error) {
	list := new(packageList)
	dec := json.NewDecoder(stdout)
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("parsing go list output: %v", err)
		}
		list.add(p)
	}
	list.addStderr(stderr)
	return list, nil
}

// add files p as good, or its errors.
func (list *packageList) add(p listedPackage) {
	if errs := loadErrors(p.ImportPath, p.ImportPath, p.Error, p.DepsErrors); len(errs) > 0 {
		list.errors = append(list.errors, errs...)
		return
	}
	list.good = append(list.good, p)
}

// loadErrors returns go list's errors for a package (self, as the import
// stacks name it), reported as package pkg's.
func loadErrors(pkg, self string, err *listError, deps []*listError) []report.PackageError {
	if err != nil {
		return []report.PackageError{{Package: pkg, Message: err.message()}}
	}
	var errs []report.PackageError
	for _, e := range deps {
		msg := e.message()
		// go list names a test's imports "p (test)" in the stack.
		if n := len(e.ImportStack); n > 0 && strings.TrimSuffix(e.ImportStack[n-1], " (test)") != self {
			msg = "dependency " + e.ImportStack[n-1] + ": " + msg
		}
		errs = append(errs, report.PackageError{Package: pkg, Message: msg})
	}
	return errs
}

// addStderr files the errors on go list's stderr.
func (list *packageList) addStderr(stderr string) {
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || isGoProgress(line) {
			continue
		}
		if m := noMatchRE.FindStringSubmatch(line); m != nil {
			list.errors = append(list.errors, report.PackageError{Package: m[1], Message: "pattern matched no packages"})
			continue
		}
		list.errors = append(list.errors, report.PackageError{Message: strings.TrimPrefix(line, "go: ")})
	}
}

// message renders a go list error on one line.
func (e *listError) message() string {
	msg := report.OneLine(e.Err)
	if e.Pos != "" && !strings.HasPrefix(msg, e.Pos) {
		msg = e.Pos + ": " + msg
	}
	return msg
}

// isGoProgress reports whether a stderr line of the go command is progress
// information rather than an error.
func isGoProgress(line string) bool {
	for _, p := range []string{"go: downloading ", "go: extracting ", "go: finding ", "go: found "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}
