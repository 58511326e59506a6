package driver

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/lockaudit/lockaudit/internal/memlimit"
	"github.com/lockaudit/lockaudit/internal/report"
)

// analyzerPlan is the analyzers a run needs, in an order where each comes
// after those it requires.
type analyzerPlan struct {
	all       []*analysis.Analyzer // roots and everything they require
	roots     map[*analysis.Analyzer]bool
	factsOnly []*analysis.Analyzer // what a unit analysed only for its facts runs
}

// planAnalyzers orders roots and their requirements. A unit that is only a
// dependency is analysed for its facts: it runs the analyzers that export
// facts and what they require, and none of the others.
func planAnalyzers(roots []*analysis.Analyzer) *analyzerPlan {
	p := &analyzerPlan{roots: make(map[*analysis.Analyzer]bool)}
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		p.all = append(p.all, a)
	}
	for _, a := range roots {
		p.roots[a] = true
		visit(a)
	}
	// p.all has each analyzer after those it requires: walked backwards,
	// an analyzer is needed before its requirements are looked at.
	need := make(map[*analysis.Analyzer]bool)
	for i := len(p.all) - 1; i >= 0; i-- {
		a := p.all[i]
		if len(a.FactTypes) > 0 || need[a] {
			need[a] = true
			for _, r := range a.Requires {
				need[r] = true
			}
		}
	}
	for _, a := range p.all {
		if need[a] {
			p.factsOnly = append(p.factsOnly, a)
		}
	}
	return p
}

// unitResult is what analysing one unit produced.
type unitResult struct {
	diags  []vetDiagnostic
	errs   []report.PackageError
	facts  *frozenFacts
	failed bool // the unit did not load, compile or type-check
}

// runAnalyzers runs the plan's analyzers on a type-checked unit, in order,
// each with the results of those it requires. With diagnostics false the
// unit is analysed for its facts only. A failed or panicking analyzer
// fails those that require it, not the others.
//
// For a big unit, the heap is paced once its SSA form is built
// (memlimit.Bound), as the vet tool paces each of its processes.
func runAnalyzers(ctx context.Context, u *unit, c *checkedUnit, plan *analyzerPlan, providers map[string]*frozenFacts, diagnostics, big bool) unitResult {
	facts := newUnitFacts(c.pkg, providers)
	analyzers := plan.factsOnly
	if diagnostics {
		analyzers = plan.all
	}
	type outcome struct {
		result any
		err    error
	}
	done := make(map[*analysis.Analyzer]outcome)
	var res unitResult
	files := filesOf(u)
	for _, a := range analyzers {
		if ctx.Err() != nil {
			break // the run is over: nothing of this unit is kept
		}
		inputs := make(map[*analysis.Analyzer]any)
		var failed []string
		for _, r := range a.Requires {
			if o := done[r]; o.err != nil {
				failed = append(failed, r.Name)
			} else {
				inputs[r] = o.result
			}
		}
		var result any
		var err error
		var diags []vetDiagnostic
		if len(failed) > 0 {
			slices.Sort(failed)
			err = fmt.Errorf("failed prerequisites: %s", strings.Join(failed, ", "))
		} else {
			result, err = runPass(a, newPass(a, u, c, facts, inputs, files, func(d analysis.Diagnostic) {
				if diagnostics && plan.roots[a] {
					diags = append(diags, vetDiagnostic{Package: u.path(), Analyzer: a.Name, jsonDiagnostic: toJSON(c.fset, d)})
				}
			}))
		}
		done[a] = outcome{result, err}
		if big && a == buildssa.Analyzer && err == nil {
			defer memlimit.Bound()()
		}
		if diagnostics && plan.roots[a] {
			if err != nil {
				res.errs = append(res.errs, report.PackageError{Package: u.path(), Message: a.Name + ": " + report.OneLine(err.Error())})
			} else {
				res.diags = append(res.diags, diags...)
			}
		}
	}
	res.facts = facts.freeze()
	return res
}

// newPass returns the pass of analyzer a over the unit.
func newPass(a *analysis.Analyzer, u *unit, c *checkedUnit, facts *unitFacts, inputs map[*analysis.Analyzer]any, files unitFiles, report func(analysis.Diagnostic)) *analysis.Pass {
	filter := make(map[reflect.Type]bool)
	for _, f := range a.FactTypes {
		filter[reflect.TypeOf(f)] = true
	}
	pass := &analysis.Pass{
		Analyzer:     a,
		Fset:         c.fset,
		Files:        c.files,
		OtherFiles:   files.other,
		IgnoredFiles: files.ignored,
		Pkg:          c.pkg,
		TypesInfo:    c.info,
		TypesSizes:   c.sizes,
		ResultOf:     inputs,
		Report:       report,
		ReadFile: func(name string) ([]byte, error) {
			if !files.readable[name] {
				return nil, fmt.Errorf("%s: ReadFile(%q): not a file of the package", a.Name, name)
			}
			return os.ReadFile(name)
		},
		ImportObjectFact:  facts.importObjectFact,
		ExportObjectFact:  func(obj types.Object, f analysis.Fact) { facts.exportObjectFact(a, obj, f) },
		ImportPackageFact: facts.importPackageFact,
		ExportPackageFact: func(f analysis.Fact) { facts.put(nil, f) },
		AllObjectFacts:    func() []analysis.ObjectFact { return facts.allObjectFacts(filter) },
		AllPackageFacts:   func() []analysis.PackageFact { return facts.allPackageFacts(filter) },
	}
	if u.Module != nil {
		pass.Module = &analysis.Module{Path: u.Module.Path, Version: u.Module.Version, GoVersion: u.Module.GoVersion}
	}
	return pass
}

// runPass runs a on pass, turning a panic into an error that names the
// innermost frame of the analyzer's code.
func runPass(a *analysis.Analyzer, pass *analysis.Pass) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: panic: %v (%s)", r, panicSite(debug.Stack()))
		}
	}()
	result, err = a.Run(pass)
	if err == nil && a.ResultType != nil && result != nil && reflect.TypeOf(result) != a.ResultType {
		err = fmt.Errorf("internal error: on package %s, analyzer %s returned a result of type %v, but declared ResultType %v",
			pass.Pkg.Path(), a.Name, reflect.TypeOf(result), a.ResultType)
	}
	return result, err
}

// panicSite returns the file:line of the frame that panicked, from a stack
// trace taken in the deferred recover: the first frame below the runtime's
// panic machinery.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "panic(") {
			for j := i + 2; j+1 < len(lines); j += 2 {
				if fn := lines[j]; !strings.HasPrefix(fn, "runtime.") {
					file := strings.TrimSpace(lines[j+1])
					if k := strings.LastIndex(file, " +0x"); k >= 0 {
						file = file[:k]
					}
					return file
				}
			}
		}
	}
	return "unknown position"
}

// toJSON renders a diagnostic as go vet -json would.
func toJSON(fset *token.FileSet, d analysis.Diagnostic) jsonDiagnostic {
	end := d.End
	if !end.IsValid() {
		end = d.Pos
	}
	j := jsonDiagnostic{
		Category: d.Category,
		Posn:     fset.Position(d.Pos).String(),
		End:      fset.Position(end).String(),
		Message:  d.Message,
	}
	for _, fix := range d.SuggestedFixes {
		jf := jsonSuggestedFix{Message: fix.Message}
		for _, e := range fix.TextEdits {
			start := fset.Position(e.Pos)
			jf.Edits = append(jf.Edits, jsonTextEdit{Filename: start.Filename, Start: start.Offset, End: fset.Position(e.End).Offset, New: string(e.NewText)})
		}
		j.SuggestedFixes = append(j.SuggestedFixes, jf)
	}
	for _, r := range d.Related {
		rend := r.End
		if !rend.IsValid() {
			rend = r.Pos
		}
		j.Related = append(j.Related, jsonRelatedInfo{Posn: fset.Position(r.Pos).String(), End: fset.Position(rend).String(), Message: r.Message})
	}
	return j
}

// unitFiles are a unit's files as its passes give them.
type unitFiles struct {
	other, ignored []string        // OtherFiles (C, C++, headers, assembly) and IgnoredFiles
	readable       map[string]bool // what Pass.ReadFile may read: these and the Go files
}

func filesOf(u *unit) unitFiles {
	f := unitFiles{ignored: absAll(u.Dir, u.IgnoredGoFiles), readable: make(map[string]bool)}
	for _, list := range [][]string{u.CFiles, u.CXXFiles, u.HFiles, u.SFiles} {
		f.other = append(f.other, absAll(u.Dir, list)...)
	}
	for _, list := range [][]string{f.other, f.ignored, absAll(u.Dir, u.GoFiles), absAll(u.Dir, u.CompiledGoFiles)} {
		for _, name := range list {
			f.readable[name] = true
		}
	}
	return f
}

func absAll(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = absIn(dir, n)
	}
	return out
}
