// Package driver runs lockaudit's analyzers on packages and returns their
// findings and the package errors.
//
// By default it analyses in this process (inprocess.go): go list compiles
// the packages for their export data, and each package is type-checked from
// source, analysed, and dropped, its facts kept in memory and its results in
// a cache of lockaudit's own (cache.go). With Config.VetDriver it drives go
// vet -vettool instead: the vet tool is a program that calls
// unitchecker.Main with the same analyzers when IsVetToolInvocation says the
// go command is driving it (lockaudit itself); go vet runs it once per
// package, and caches the results in the build cache.
package driver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/internal/rules"
)

// ErrInterrupted reports that the run was cancelled by a signal.
var ErrInterrupted = errors.New("interrupted")

// Config says what to analyse and how.
type Config struct {
	Dir       string               // where the go command runs; relative names are resolved against it
	Tool      string               // the vet tool executable
	Analyzers []*analysis.Analyzer // the vet tool's analyzers, for their flags
	Selection *rules.Selection     // rules and categories reported; the others are not run or are filtered out
	Severity  string               // lowest confidence reported: "warning" (proven; also "") or "note" (plausible too)
	Tests     bool                 // report findings located in _test.go files
	Generated bool                 // report findings located in generated files (// Code generated ... DO NOT EDIT.)
	// AnalyzerTests names the analyzers whose tests flag is set (heldcall:
	// report in _test.go files too; shardlock: its above-shards findings
	// there too); only with Tests.
	AnalyzerTests []string
	Block         []string // extra blocking functions for heldcall, name=category, already validated
	Tags          string   // comma-separated build tags
	// VetDriver runs the analyzers through go vet -vettool, one process
	// per package, rather than in this process.
	VetDriver bool
}

// Result is what a run found.
type Result struct {
	Findings []report.Finding      // sorted, with fingerprints
	Errors   []report.PackageError // sorted: what could not be analysed
	Modules  []string              // root directories of the main modules of the analysed packages

	Paths   *report.Paths   // the report paths of Dir, in which the findings are named
	Sources *report.Sources // the files the findings point into, read once
}

// Run lists the packages matching patterns and analyses them with the vet
// tool. Packages that cannot be analysed become errors of the result; the
// error is for a run that produced nothing at all (ErrInterrupted when ctx
// was cancelled).
func Run(ctx context.Context, cfg Config, patterns []string) (*Result, error) {
	var build []string // build flags for go list and go vet
	if cfg.Tags != "" {
		build = append(build, "-tags="+cfg.Tags)
	}

	env, cleanup, err := newGoEnv(cfg.Dir)
	if err != nil {
		return nil, err
	}
	defer cleanup()

	var (
		list  *packageList
		diags []vetDiagnostic
		errs  []report.PackageError
	)
	if cfg.VetDriver {
		list, diags, errs, err = runGoVet(ctx, env, cfg, build, patterns)
	} else {
		list, diags, errs, err = runUnits(ctx, env, cfg, build, patterns)
	}
	if err != nil {
		return nil, err
	}

	paths := report.NewPaths(cfg.Dir)
	src := report.NewSources()
	return &Result{
		Findings: buildFindings(diags, findingOptions{sel: cfg.Selection, tests: cfg.Tests, generated: cfg.Generated}, src, paths),
		Errors:   report.SortErrors(errs),
		Modules:  mainModuleDirs(list.good),
		Paths:    paths,
		Sources:  src,
	}, nil
}

// vetFlags returns the analyzer flags for the vet tool: -NAME=false for the
// analyzers the selection does not need (unitchecker runs all analyzers not
// set to false; category filtering happens on the results), then the
// severity, tests and block flags of the analyzers that run.
func vetFlags(cfg Config) []string {
	var flags []string
	for _, a := range cfg.Analyzers {
		if !cfg.Selection.Runs(a.Name) {
			flags = append(flags, "-"+a.Name+"=false")
		}
	}
	for _, a := range cfg.Analyzers {
		if cfg.Severity != "" && cfg.Severity != "warning" && a.Flags.Lookup("severity") != nil && cfg.Selection.Runs(a.Name) {
			flags = append(flags, "-"+a.Name+".severity="+cfg.Severity)
		}
		if slices.Contains(cfg.AnalyzerTests, a.Name) && cfg.Tests && a.Flags.Lookup("tests") != nil && cfg.Selection.Runs(a.Name) {
			flags = append(flags, "-"+a.Name+".tests")
		}
	}
	if len(cfg.Block) > 0 {
		flags = append(flags, "-heldcall.block="+strings.Join(cfg.Block, ","))
	}
	return flags
}

// notAnalysed returns an error for each listed package that go vet skipped
// silently: the go command does not vet a package (or its test variant) when
// a dependency fails to build, and only reports the dependency's errors.
func notAnalysed(pkgs []listedPackage, failed map[string]bool) []report.PackageError {
	var errs []report.PackageError
	for _, p := range pkgs {
		if failed[p.ImportPath] {
			continue
		}
		var bad []string
		for _, deps := range [][]string{p.Deps, p.TestImports, p.XTestImports} {
			for _, d := range deps {
				if failed[d] && d != p.ImportPath && !slices.Contains(bad, d) {
					bad = append(bad, d)
				}
			}
		}
		if len(bad) == 0 {
			continue
		}
		slices.Sort(bad)
		verb := "has"
		if len(bad) > 1 {
			verb = "have"
		}
		errs = append(errs, report.PackageError{Package: p.ImportPath,
			Message: fmt.Sprintf("not analysed (or only partly): depends on %s, which %s errors", strings.Join(bad, ", "), verb)})
	}
	return errs
}

// mainModuleDirs returns the root directories of the main modules of pkgs:
// fixes are applied only to files inside them.
func mainModuleDirs(pkgs []listedPackage) []string {
	var dirs []string
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" && !slices.Contains(dirs, p.Module.Dir) {
			dirs = append(dirs, p.Module.Dir)
		}
	}
	return dirs
}
