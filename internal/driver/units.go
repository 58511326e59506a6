package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lockaudit/lockaudit/internal/report"
)

// A unit is one package as go list -deps -test -export describes it: a
// package, or one of its test variants ("p [p.test]", "p_test [p.test]",
// or a dependency recompiled for p's test, "q [p.test]").
type unit struct {
	listedPackage   // ImportPath is the unit's ID: the import path, with the variant suffix
	Name            string
	ForTest         string
	Export          string // the compiler's export data
	GoFiles         []string
	CompiledGoFiles []string // relative to Dir, or absolute (cgo output)
	IgnoredGoFiles  []string
	CFiles          []string
	CXXFiles        []string
	HFiles          []string
	SFiles          []string
	ImportMap       map[string]string
	DepOnly         bool
	Standard        bool
	compileErr      *listError // the compiler's errors, when it did not build
}

// unitFields are the fields Run asks go list for, for each unit.
const unitFields = "ImportPath,Name,Dir,ForTest,Export,GoFiles,CompiledGoFiles,IgnoredGoFiles,CFiles,CXXFiles,HFiles,SFiles," +
	"ImportMap,Deps,DepOnly,Standard,Error,DepsErrors,TestImports,XTestImports,Module"

// path returns the unit's import path without its variant suffix.
func (u *unit) path() string { return packageOfID(u.ImportPath) }

// testMain reports whether u is the generated main package of a test
// binary ("p.test"), which nobody wrote and nothing analyses.
func (u *unit) testMain(byID map[string]*unit) bool {
	base, ok := strings.CutSuffix(u.ImportPath, ".test")
	if !ok || u.Name != "main" || u.ForTest != "" {
		return false
	}
	return byID[base+" ["+u.ImportPath+"]"] != nil || byID[base+"_test ["+u.ImportPath+"]"] != nil || byID[base] != nil
}

// A unitList is what go list -deps -test -export said of the patterns.
type unitList struct {
	units []*unit // in go list's order: every unit after its dependencies
	byID  map[string]*unit
	pkgs  *packageList // the packages the patterns name, as listPackages returns them
}

// listUnits lists the packages that patterns name, their test variants and
// all their dependencies, compiling each (from the build cache when it can)
// for its export data.
func listUnits(ctx context.Context, env goEnv, buildFlags, patterns []string) (*unitList, error) {
	stdout, stderr, runErr, err := runGoList(ctx, env, buildFlags, patterns, "-deps", "-test", "-export", "-compiled", "-json="+unitFields)
	if err != nil {
		return nil, err
	}
	list, err := parseUnits(stdout, stderr)
	if err != nil {
		return nil, err
	}
	if runErr != nil && len(list.units) == 0 && len(list.pkgs.errors) == 0 {
		return nil, fmt.Errorf("go list: %v", runErr)
	}
	return list, nil
}

// parseUnits reads go list's JSON stream and stderr. The packages the
// patterns name (not DepOnly, not a test variant, not a test main) make up
// the package list that the go vet driver would have had. A unit that did
// not compile keeps its errors apart (compileErr): like go vet, Run reports
// them for the unit and "not analysed" for what depends on it, rather than
// failing every dependent with the same compiler output.
func parseUnits(stdout io.Reader, stderr string) (*unitList, error) {
	l := &unitList{byID: make(map[string]*unit), pkgs: new(packageList)}
	dec := json.NewDecoder(stdout)
	for {
		u := new(unit)
		if err := dec.Decode(u); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("parsing go list output: %v", err)
		}
		if u.Error != nil && isCompileError(u.Error) {
			u.compileErr, u.Error = u.Error, nil
		}
		u.DepsErrors = slices.DeleteFunc(u.DepsErrors, isCompileError)
		l.units = append(l.units, u)
		l.byID[u.ImportPath] = u
	}
	for _, u := range l.units {
		switch {
		case u.DepOnly || u.testMain(l.byID):
		case u.ForTest == "":
			l.pkgs.add(u.listedPackage)
		case u.loadFailed():
			// A test variant that cannot be loaded (a test file imports
			// a package no module provides): the package's error.
			// A test's errors are its package's, as go vet names them.
			l.pkgs.errors = append(l.pkgs.errors, loadErrors(u.ForTest, u.path(), u.Error, u.DepsErrors)...)
		}
	}
	l.pkgs.addStderr(stderr)
	return l, nil
}

// loadFailed reports whether go list could not load u or a dependency
// (compile errors apart): it is not analysed, and the listing reports why.
func (u *unit) loadFailed() bool { return u.Error != nil || len(u.DepsErrors) > 0 }

// isCompileError reports whether e is the compiler's output for a package
// that does not build ("# pkg" and its errors), rather than a loading error.
func isCompileError(e *listError) bool { return strings.HasPrefix(e.Err, "# ") }

// compileErrors returns the errors of a unit that did not compile, one per
// package, each on one line.
func compileErrors(u *unit) []report.PackageError {
	if u.compileErr == nil {
		return nil
	}
	var errs []report.PackageError
	for _, e := range parseVetStderr(u.compileErr.Err, nil) {
		if e.Package == "" {
			e.Package = u.path()
		}
		errs = append(errs, e.PackageError)
	}
	return errs
}
