package driver

import (
	"context"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// stringsLike lists units shaped like go list -deps -test's output for a
// low-level package with tests: strings has an internal test (so
// "strings [strings.test]" reports for it) and an external one, and bufio,
// which imports strings, is recompiled for strings' test. Only the
// recompiled bufio is listed, as when nothing else imports bufio.
func stringsLike() *unitList {
	units := []*unit{
		{listedPackage: listedPackage{ImportPath: "errors"}, DepOnly: true, CompiledGoFiles: []string{"errors.go"}},
		{listedPackage: listedPackage{ImportPath: "strings", Deps: []string{"errors"}}, CompiledGoFiles: []string{"s.go"}},
		{listedPackage: listedPackage{ImportPath: "io", Deps: []string{"errors"}}, CompiledGoFiles: []string{"io.go"}},
		{listedPackage: listedPackage{ImportPath: "strings [strings.test]", Deps: []string{"errors"}}, ForTest: "strings", CompiledGoFiles: []string{"s.go", "export_test.go"}},
		{listedPackage: listedPackage{ImportPath: "bufio [strings.test]", Deps: []string{"errors", "strings [strings.test]"}}, ForTest: "strings", DepOnly: true, CompiledGoFiles: []string{"bufio.go"}},
		{listedPackage: listedPackage{ImportPath: "testing [strings.test]", Deps: []string{"bufio [strings.test]", "errors", "io", "strings [strings.test]"}}, ForTest: "strings", DepOnly: true, CompiledGoFiles: []string{"testing.go"}},
		{listedPackage: listedPackage{ImportPath: "strings_test [strings.test]", Deps: []string{"errors", "io", "strings [strings.test]", "testing [strings.test]"}}, ForTest: "strings", CompiledGoFiles: []string{"x_test.go"}},
		{listedPackage: listedPackage{ImportPath: "strings.test", Deps: []string{"strings [strings.test]", "strings_test [strings.test]", "testing [strings.test]"}}, Name: "main", CompiledGoFiles: []string{"/cache/testmain.go"}},
	}
	l := &unitList{byID: make(map[string]*unit)}
	for _, u := range units {
		l.units = append(l.units, u)
		l.byID[u.ImportPath] = u
	}
	return l
}

// TestPlanJobs checks which units are analysed, which report, and whose
// facts each reads.
func TestPlanJobs(t *testing.T) {
	jobs := planJobs(stringsLike())
	byID := make(map[string]*job)
	var order []string
	for _, j := range jobs {
		byID[j.u.ImportPath] = j
		order = append(order, j.u.ImportPath)
	}
	// strings reports through its test variant, and nothing reads plain
	// strings' facts; the test main is generated; io is a pattern's
	// package without tests.
	for _, id := range []string{"strings", "strings.test"} {
		if byID[id] != nil {
			t.Errorf("%s is analysed", id)
		}
	}
	for id, report := range map[string]bool{
		"errors": false, "io": true,
		"strings [strings.test]": true, "strings_test [strings.test]": true,
		"bufio [strings.test]": false, "testing [strings.test]": false,
	} {
		j := byID[id]
		if j == nil {
			t.Errorf("%s: not analysed", id)
			continue
		}
		if j.report != report {
			t.Errorf("%s: report %v, want %v", id, j.report, report)
		}
	}
	// Every job comes after the jobs it reads.
	for i, j := range jobs {
		for _, p := range j.providers {
			if k := slices.Index(jobs, p); k > i {
				t.Errorf("%s (at %d) comes before %s (at %d), whose facts it reads", j.u.ImportPath, i, p.u.ImportPath, k)
			}
		}
	}
	// The external test reads the test variant's facts (it can call the
	// test files' exports); a dependency recompiled for the test reads
	// the plain package's, and is itself read as the plain package when
	// that is listed, as the variant otherwise.
	xtest := byID["strings_test [strings.test]"]
	if p := xtest.providers["strings"]; p == nil || p.u.ImportPath != "strings [strings.test]" {
		t.Errorf("strings_test reads strings' facts from %v, want the test variant", p)
	}
	if p := xtest.providers["testing"]; p == nil || p.u.ImportPath != "testing [strings.test]" {
		t.Errorf("strings_test reads testing's facts from %v, want testing [strings.test] (no plain testing is listed)", p)
	}
	if p := byID["testing [strings.test]"].providers["io"]; p == nil || p.u.ImportPath != "io" {
		t.Errorf("testing reads io's facts from %v, want io", p)
	}
	if j := byID["strings [strings.test]"]; j.waiting != len(j.providers) {
		t.Errorf("strings [strings.test] waits for %d jobs, has %d providers", j.waiting, len(j.providers))
	}
	if t.Failed() {
		t.Logf("order: %s", strings.Join(order, ", "))
	}
}

// TestPlanAnalyzers checks that a unit analysed for its facts runs only
// the analyzers with facts and what they require.
func TestPlanAnalyzers(t *testing.T) {
	base := &analysis.Analyzer{Name: "base"}
	facts := &analysis.Analyzer{Name: "facts", Requires: []*analysis.Analyzer{base}, FactTypes: []analysis.Fact{new(testFact)}}
	report := &analysis.Analyzer{Name: "report", Requires: []*analysis.Analyzer{facts}}
	other := &analysis.Analyzer{Name: "other"}
	p := planAnalyzers([]*analysis.Analyzer{report, other})
	names := func(as []*analysis.Analyzer) string {
		var s []string
		for _, a := range as {
			s = append(s, a.Name)
		}
		return strings.Join(s, " ")
	}
	if got := names(p.all); got != "base facts report other" {
		t.Errorf("all: %s", got)
	}
	if got := names(p.factsOnly); got != "base facts" {
		t.Errorf("facts only: %s", got)
	}
	if !p.roots[report] || !p.roots[other] || p.roots[facts] {
		t.Errorf("roots %v", p.roots)
	}
}

type testFact struct{ Blocks []string }

func (*testFact) AFact() {}

// writeUnit writes a one-file package into dir and returns its unit.
func writeUnit(t *testing.T, dir, path, src string) *unit {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	return &unit{listedPackage: listedPackage{ImportPath: path, Dir: dir}, CompiledGoFiles: []string{"a.go"}}
}

// TestRunAnalyzersPanic checks that a panicking analyzer becomes an error
// that names the package and the line that panicked, fails the analyzers
// that require it, and leaves the others' diagnostics.
func TestRunAnalyzersPanic(t *testing.T) {
	u := writeUnit(t, t.TempDir(), "example.com/cache", "package cache\n\nfunc Get() int { return 1 }\n")
	c, err := typeCheck(u, nil, nil, newImportView(), testTarget)
	if err != nil {
		t.Fatal(err)
	}
	boom := &analysis.Analyzer{Name: "boom", Doc: "panics", Run: func(*analysis.Pass) (any, error) { panic("boom") }}
	after := &analysis.Analyzer{Name: "after", Doc: "requires boom", Requires: []*analysis.Analyzer{boom},
		Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	fine := &analysis.Analyzer{Name: "fine", Doc: "reports", Run: func(pass *analysis.Pass) (any, error) {
		pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Decls[0].Pos(), Category: "cat", Message: "get is here"})
		return nil, nil
	}}
	r := runAnalyzers(context.Background(), u, c, planAnalyzers([]*analysis.Analyzer{after, boom, fine}), nil, true, false)
	var msgs []string
	for _, e := range r.errs {
		if e.Package != "example.com/cache" {
			t.Errorf("error of package %q", e.Package)
		}
		msgs = append(msgs, e.Message)
	}
	slices.Sort(msgs)
	if len(msgs) != 2 || !strings.HasPrefix(msgs[0], "after: failed prerequisites: boom") ||
		!strings.HasPrefix(msgs[1], "boom: internal error: panic: boom (") || !strings.Contains(msgs[1], "inprocess_test.go:") {
		t.Errorf("errors:\n%s", strings.Join(msgs, "\n"))
	}
	if len(r.diags) != 1 || r.diags[0].Analyzer != "fine" || !strings.HasSuffix(r.diags[0].Posn, "a.go:3:1") || r.diags[0].Category != "cat" {
		t.Errorf("diagnostics %+v", r.diags)
	}
}

// TestFactsAcrossUnits checks that a fact exported on an object while one
// unit is analysed is found, through its object path, on the same object
// as another unit sees it: from export data, or from another check.
func TestFactsAcrossUnits(t *testing.T) {
	dir := t.TempDir()
	u := writeUnit(t, dir, "example.com/store", "package store\n\ntype DB struct{}\n\nfunc (*DB) Flush() {}\n\nfunc Open() *DB { return nil }\n")
	c, err := typeCheck(u, nil, nil, newImportView(), testTarget)
	if err != nil {
		t.Fatal(err)
	}
	flush := lookupMethod(t, c, "DB", "Flush")
	exporting := newUnitFacts(c.pkg, nil)
	exporting.exportObjectFact(&analysis.Analyzer{Name: "t"}, flush, &testFact{Blocks: []string{"fsync"}})
	exporting.put(nil, &testFact{Blocks: []string{"package"}})
	frozen := exporting.freeze()

	// A second check of the same source stands for any other view of
	// the package: its objects are not the first check's.
	c2, err := typeCheck(u, nil, nil, newImportView(), testTarget)
	if err != nil {
		t.Fatal(err)
	}
	flush2 := lookupMethod(t, c2, "DB", "Flush")
	if flush2 == flush {
		t.Fatal("the two checks share objects")
	}
	importing := newUnitFacts(types.NewPackage("example.com/server", "server"), map[string]*frozenFacts{"example.com/store": frozen})
	var f testFact
	if !importing.importObjectFact(flush2, &f) || !slices.Equal(f.Blocks, []string{"fsync"}) {
		t.Errorf("object fact: %v", f)
	}
	open := c2.pkg.Scope().Lookup("Open")
	if importing.importObjectFact(open, new(testFact)) {
		t.Errorf("a fact for Open, which has none")
	}
	var pf testFact
	if !importing.importPackageFact(c2.pkg, &pf) || !slices.Equal(pf.Blocks, []string{"package"}) {
		t.Errorf("package fact: %v", pf)
	}
}

// lookupMethod returns the method of the named type of c's package.
func lookupMethod(t *testing.T, c *checkedUnit, typ, name string) types.Object {
	t.Helper()
	tn := c.pkg.Scope().Lookup(typ)
	if tn == nil {
		t.Fatalf("no type %s", typ)
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, c.pkg, name)
	if obj == nil {
		t.Fatalf("no method %s.%s", typ, name)
	}
	return obj
}

// TestInProcessStd runs the in-process driver on net/http with an analyzer
// that exports a package fact and a fact for each exported function, and
// one that reads them back for every package net/http imports. Its imports
// include vendored packages, which must keep the path they were compiled
// under, facts included.
func TestInProcessStd(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks much of the standard library")
	}
	exporter := &analysis.Analyzer{Name: "exporter", Doc: "exports facts", FactTypes: []analysis.Fact{new(testFact)},
		Run: func(pass *analysis.Pass) (any, error) {
			pass.ExportPackageFact(&testFact{Blocks: []string{pass.Pkg.Path()}})
			for _, name := range pass.Pkg.Scope().Names() {
				if fn, ok := pass.Pkg.Scope().Lookup(name).(*types.Func); ok && fn.Exported() {
					pass.ExportObjectFact(fn, &testFact{Blocks: []string{fn.FullName()}})
				}
			}
			return nil, nil
		}}
	reader := &analysis.Analyzer{Name: "reader", Doc: "reads them", Requires: []*analysis.Analyzer{exporter},
		Run: func(pass *analysis.Pass) (any, error) {
			for _, imp := range pass.Pkg.Imports() {
				if imp == types.Unsafe {
					continue // never analysed
				}
				var pf testFact
				if !pass.ImportPackageFact(imp, &pf) || len(pf.Blocks) != 1 || pf.Blocks[0] != imp.Path() {
					pass.Reportf(pass.Files[0].Package, "no package fact for %s: %v", imp.Path(), pf.Blocks)
					continue
				}
				funcs := 0
				for _, name := range imp.Scope().Names() {
					fn, ok := imp.Scope().Lookup(name).(*types.Func)
					if !ok || !fn.Exported() {
						continue
					}
					funcs++
					var of testFact
					if !pass.ImportObjectFact(fn, &of) || len(of.Blocks) != 1 || of.Blocks[0] != fn.FullName() {
						pass.Reportf(pass.Files[0].Package, "no fact for %s: %v", fn.FullName(), of.Blocks)
					}
				}
				pass.Reportf(pass.Files[0].Package, "facts of %s (%d funcs)", imp.Path(), funcs)
			}
			return nil, nil
		}}
	env, cleanup, err := newGoEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	l, err := listUnits(context.Background(), env, nil, []string{"net/http"})
	if err != nil {
		t.Fatal(err)
	}
	res := runInProcess(context.Background(), l, planJobs(l), planAnalyzers([]*analysis.Analyzer{reader}), nil, testTarget)
	if len(res.errors) > 0 {
		t.Fatalf("errors: %v", res.errors)
	}
	seen := make(map[string]bool)
	for _, d := range res.diags {
		if !strings.HasPrefix(d.Message, "facts of ") {
			t.Errorf("%s: %s", d.Package, d.Message)
		}
		seen[d.Package+": "+strings.Fields(d.Message)[2]] = true
	}
	for _, want := range []string{
		"net/http: vendor/golang.org/x/net/http/httpguts", // vendored
		"net/http: net/textproto",
		"net/http_test: net/http", // the external test reads the test variant's
	} {
		if !seen[want] {
			t.Errorf("no facts read for %s", want)
		}
	}
}

// testTarget is the target of the unit tests: this process's.
var testTarget = &target{goos: runtime.GOOS, goarch: runtime.GOARCH, goversion: runtime.Version(), sizes: types.SizesFor("gc", runtime.GOARCH)}

// TestGoTarget checks that the target comes from the go command, GOENV
// file included, and the language versions go vet would give.
func TestGoTarget(t *testing.T) {
	goenv := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(goenv, []byte("GOARCH=386\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOENV", goenv)
	t.Setenv("GOARCH", "")
	env, cleanup, err := newGoEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	tg, err := goTarget(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	if tg.goarch != "386" || tg.sizes.Sizeof(types.Typ[types.Uintptr]) != 4 {
		t.Errorf("target %s/%s, uintptr of %d bytes; want 386 from GOENV", tg.goos, tg.goarch, tg.sizes.Sizeof(types.Typ[types.Uintptr]))
	}
	if !strings.HasPrefix(tg.goversion, "go1.") {
		t.Errorf("go version %q", tg.goversion)
	}
	mod := func(v string) *unit {
		return &unit{listedPackage: listedPackage{Module: &listedModule{Path: "example.com/m", GoVersion: v}}}
	}
	for _, c := range []struct {
		u    *unit
		want string
	}{{mod("1.22"), "go1.22"}, {mod(""), "go1.16"}, {&unit{Standard: true}, tg.goversion}} {
		if got := tg.goVersion(c.u); got != c.want {
			t.Errorf("goVersion = %q, want %q", got, c.want)
		}
	}
}
