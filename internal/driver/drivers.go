package driver

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/report"
)

// runGoVet analyses the packages with go vet -vettool=cfg.Tool.
func runGoVet(ctx context.Context, env goEnv, cfg Config, build, patterns []string) (*packageList, []vetDiagnostic, []report.PackageError, error) {
	list, err := listPackages(ctx, env, build, patterns)
	if err != nil {
		return nil, nil, nil, err
	}
	errs := list.errors
	if len(list.good) == 0 {
		return list, nil, errs, nil
	}
	pkgDir := make(map[string]string)
	for _, p := range list.good {
		pkgDir[p.Dir] = p.ImportPath
	}
	flags := append(slices.Clone(build), vetFlags(cfg)...)
	res, err := runVet(ctx, env, cfg.Tool, flags, list.vetArgs(patterns), pkgDir)
	if err != nil {
		return nil, nil, nil, err
	}
	errs = append(errs, res.errors...)
	errs = append(errs, notAnalysed(list.good, res.failed)...)
	return list, res.diags, errs, nil
}

// runUnits analyses the packages in this process (inprocess.go).
func runUnits(ctx context.Context, env goEnv, cfg Config, build, patterns []string) (*packageList, []vetDiagnostic, []report.PackageError, error) {
	units, err := listUnits(ctx, env, build, patterns)
	if err != nil {
		return nil, nil, nil, err
	}
	list := units.pkgs
	errs := list.errors
	if len(list.good) == 0 {
		return list, nil, errs, nil
	}
	t, err := goTarget(ctx, env)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, nil, ErrInterrupted
		}
		return nil, nil, nil, err
	}
	flags := vetFlags(cfg)
	analyzers, restore, err := setAnalyzerFlags(cfg.Analyzers, flags)
	if err != nil {
		return nil, nil, nil, err
	}
	plan := planAnalyzers(analyzers)
	res := runInProcess(ctx, units, planJobs(units), plan, openCache(plan.all, flags, t), t)
	if res == nil || ctx.Err() != nil {
		// Interrupted: analyzers may still be running, on flags that
		// stay set until the process ends.
		return nil, nil, nil, ErrInterrupted
	}
	restore()
	errs = append(errs, res.errors...)
	errs = append(errs, notAnalysed(list.good, res.failed)...)
	return list, res.diags, errs, nil
}

// setAnalyzerFlags sets, in this process, the analyzer flags that vetFlags
// gives the vet tool. It returns the analyzers to run, and a function that
// puts the flags back to their defaults.
func setAnalyzerFlags(analyzers []*analysis.Analyzer, flags []string) ([]*analysis.Analyzer, func(), error) {
	byName := make(map[string]*analysis.Analyzer)
	for _, a := range analyzers {
		byName[a.Name] = a
	}
	var set []*flag.Flag
	restore := func() {
		for _, f := range set {
			ResetFlag(f)
		}
	}
	off := make(map[string]bool)
	for _, arg := range flags {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(arg, "-"), "=")
		an, fl, ok := strings.Cut(name, ".")
		if !ok {
			off[name] = value == "false"
			continue
		}
		var f *flag.Flag
		if a := byName[an]; a != nil {
			f = a.Flags.Lookup(fl)
		}
		if f == nil {
			restore()
			return nil, nil, fmt.Errorf("no analyzer flag -%s", name)
		}
		if !hasValue {
			value = "true"
		}
		if err := f.Value.Set(value); err != nil {
			restore()
			return nil, nil, fmt.Errorf("-%s: %v", name, err)
		}
		set = append(set, f)
	}
	var run []*analysis.Analyzer
	for _, a := range analyzers {
		if !off[a.Name] {
			run = append(run, a)
		}
	}
	return run, restore, nil
}

// ResetFlag puts an analyzer flag back to its default, as a run of the
// in-process driver does with the flags it set. A list flag whose Set adds
// to the list (heldcall's -block) has a Reset method.
func ResetFlag(f *flag.Flag) {
	if r, ok := f.Value.(interface{ Reset() }); ok {
		r.Reset()
		return
	}
	_ = f.Value.Set(f.DefValue) // a flag's default always parses
}
