package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParsePosn(t *testing.T) {
	for _, tc := range []struct {
		in        string
		file      string
		line, col int
	}{
		{"/m/a.go:12:5", "/m/a.go", 12, 5},
		{"/m/a.go:12", "/m/a.go", 12, 0},
		{"a/a.go:3:1", "/work/a/a.go", 3, 1},
		{"/m/we:ird.go:7:2", "/m/we:ird.go", 7, 2},
		{"/m/a.go", "/m/a.go", 0, 0},
		{"-", "", 0, 0},
	} {
		file, line, col := parsePosn(tc.in, "/work")
		if file != tc.file || line != tc.line || col != tc.col {
			t.Errorf("parsePosn(%q) = %q, %d, %d; want %q, %d, %d", tc.in, file, line, col, tc.file, tc.line, tc.col)
		}
	}
}

const funcsSrc = `package p

import "sync"

type T struct{ mu sync.Mutex }

type G[K comparable, V any] struct{ mu sync.Mutex }

var pkgLevel = func() {
	_ = 1
}

func Plain() {
	_ = 1
}

func (t T) Value() {
	_ = 1
}

func (t *T) Pointer() {
	go func() {
		_ = 1
	}()
}

func (g *G[K, V]) Generic() {
	_ = 1
}
`

// writeFile writes content to dir/name and returns the absolute name.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	abs := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(abs), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	return abs
}

// lineOf returns the 1-based line of the first line of src containing s.
func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not found", s)
	return 0
}

func TestEnclosingFunc(t *testing.T) {
	name := writeFile(t, t.TempDir(), "p.go", funcsSrc)
	src := newSourceCache()
	lines := strings.Split(funcsSrc, "\n")
	for _, tc := range []struct {
		after string // the finding is on the first "_ = 1" line after this one
		want  string
	}{
		{"var pkgLevel", ""},
		{"func Plain", "Plain"},
		{"func (t T) Value", "(T).Value"},
		{"func (t *T) Pointer", "(*T).Pointer"},
		{"func (g *G[K, V]) Generic", "(*G).Generic"},
	} {
		line := lineOf(t, funcsSrc, tc.after)
		for !strings.Contains(lines[line-1], "_ = 1") {
			line++
		}
		if got := src.enclosingFunc(name, line, 2); got != tc.want {
			t.Errorf("function at line %d (after %q) = %q, want %q", line, tc.after, got, tc.want)
		}
	}
	if got := src.enclosingFunc(name, 1, 1); got != "" {
		t.Errorf("function at the package clause = %q", got)
	}
	if got := src.enclosingFunc(filepath.Join(t.TempDir(), "missing.go"), 3, 1); got != "" {
		t.Errorf("function in a missing file = %q", got)
	}
}

// diag returns a heldcall diagnostic at file:line:col.
func diag(pkg, category, file string, line, col int, msg string, related ...jsonRelatedInfo) vetDiagnostic {
	posn := fmt.Sprintf("%s:%d:%d", file, line, col)
	return vetDiagnostic{Package: pkg, Analyzer: "heldcall", jsonDiagnostic: jsonDiagnostic{
		Category: category, Posn: posn, End: posn, Message: msg, Related: related,
	}}
}

func defaultSelection(t *testing.T) *selection {
	t.Helper()
	sel, err := parseSelection("", "", analyzers())
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func TestBuildFindings(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a/a.go", "package a\n\nfunc F() {\n\tx()\n\ty()\n}\n")
	b := writeFile(t, dir, "b/b.go", "package b\n\nfunc G() {\n\tx()\n}\n")
	at := writeFile(t, dir, "a/a_test.go", "package a\n\nfunc TestF() {\n\tx()\n}\n")
	locked := jsonRelatedInfo{Posn: a + ":3:1", End: a + ":3:1", Message: "c.mu locked here"}
	diags := []vetDiagnostic{
		diag("example.com/m/b", "sleep", b, 4, 2, "b sleeps"),
		diag("example.com/m/a", "sleep", a, 5, 2, "a sleeps later"),
		diag("example.com/m/a", "callback", a, 4, 2, "a calls back", locked),
		// The same finding from the test variant: a duplicate.
		diag("example.com/m/a [example.com/m/a.test]", "callback", a, 4, 2, "a calls back", locked),
		diag("example.com/m/a", "sleep", at, 4, 2, "test sleeps"),
	}
	for i := range diags {
		diags[i].Package = packageOfID(diags[i].Package)
	}
	paths := &pathMapper{cwd: dir, root: dir}

	got := buildFindings(diags, findingOptions{sel: defaultSelection(t), tests: true}, newSourceCache(), paths)
	var summary []string
	for _, f := range got {
		summary = append(summary, fmt.Sprintf("%s:%d %s %s %q %q", f.File, f.Line, f.Category, f.Function, f.Lock, f.Message))
	}
	want := []string{
		`a/a.go:4 callback F "c.mu" "a calls back"`,
		`a/a.go:5 sleep F "" "a sleeps later"`,
		`a/a_test.go:4 sleep TestF "" "test sleeps"`,
		`b/b.go:4 sleep G "" "b sleeps"`,
	}
	if strings.Join(summary, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(summary, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range got {
		if f.Severity != "warning" || f.Rule != "heldcall" || f.Fingerprint == "" || f.EndLine != f.Line {
			t.Errorf("finding %+v: bad severity, rule, fingerprint or end", f)
		}
	}

	got = buildFindings(diags, findingOptions{sel: defaultSelection(t), tests: false}, newSourceCache(), paths)
	for _, f := range got {
		if strings.HasSuffix(f.File, "_test.go") {
			t.Errorf("-tests=false kept %s", f.File)
		}
	}
	if len(got) != 3 {
		t.Errorf("-tests=false: got %d findings, want 3", len(got))
	}

	sel, err := parseSelection("", "heldcall/sleep", analyzers())
	if err != nil {
		t.Fatal(err)
	}
	got = buildFindings(diags, findingOptions{sel: sel, tests: true}, newSourceCache(), paths)
	if len(got) != 1 || got[0].Category != "callback" {
		t.Errorf("-disable heldcall/sleep: got %+v", got)
	}
}

func TestSortFindings(t *testing.T) {
	fs := []Finding{
		{File: "b.go", Line: 1, Column: 1, Rule: "heldcall"},
		{File: "a.go", Line: 10, Column: 1, Rule: "heldcall"},
		{File: "a.go", Line: 2, Column: 9, Rule: "heldcall"},
		{File: "a.go", Line: 2, Column: 3, Rule: "lockorder"},
		{File: "a.go", Line: 2, Column: 3, Rule: "heldcall"},
	}
	sortFindings(fs)
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s:%d:%d:%s", f.File, f.Line, f.Column, f.Rule))
	}
	want := "a.go:2:3:heldcall a.go:2:3:lockorder a.go:2:9:heldcall a.go:10:1:heldcall b.go:1:1:heldcall"
	if strings.Join(got, " ") != want {
		t.Errorf("sorted: %s\nwant:   %s", strings.Join(got, " "), want)
	}
}

func TestSortErrors(t *testing.T) {
	got := sortErrors([]PackageError{{"b", "x"}, {"a", "y"}, {"b", "x"}, {"a", "x"}})
	want := []PackageError{{"a", "x"}, {"a", "y"}, {"b", "x"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestPathMapper(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "mod/go.mod", "module m\n")
	cwd := filepath.Join(root, "mod", "sub")
	if err := os.MkdirAll(cwd, 0o777); err != nil {
		t.Fatal(err)
	}
	p := newPathMapper(cwd)
	if p.root != root {
		t.Fatalf("root = %q, want the repository root %q", p.root, root)
	}
	inCwd := filepath.Join(cwd, "x", "a.go")
	inMod := filepath.Join(root, "mod", "b.go")
	outside := "/elsewhere/c.go"
	for _, tc := range []struct{ abs, display, rel string }{
		{inCwd, filepath.Join("x", "a.go"), "mod/sub/x/a.go"},
		{inMod, inMod, "mod/b.go"},
		{outside, outside, outside},
	} {
		if got := p.display(tc.abs); got != tc.display {
			t.Errorf("display(%q) = %q, want %q", tc.abs, got, tc.display)
		}
		if got := p.rel(tc.abs); got != tc.rel {
			t.Errorf("rel(%q) = %q, want %q", tc.abs, got, tc.rel)
		}
	}
	if uri, rel := p.uri("mod/a b.go"); uri != "mod/a%20b.go" || !rel {
		t.Errorf("uri of a relative path = %q, %v", uri, rel)
	}
	if uri, rel := p.uri(outside); uri != "file:///elsewhere/c.go" || rel {
		t.Errorf("uri of an absolute path = %q, %v", uri, rel)
	}

	// Without a repository, the module root.
	noRepo := t.TempDir()
	writeFile(t, noRepo, "go.mod", "module m\n")
	sub := filepath.Join(noRepo, "pkg")
	if err := os.Mkdir(sub, 0o777); err != nil {
		t.Fatal(err)
	}
	if findUp(noRepo, ".git") != "" {
		t.Skip("the temporary directory is inside a repository")
	}
	if got := newPathMapper(sub).root; got != noRepo {
		t.Errorf("root without repository = %q, want module root %q", got, noRepo)
	}
}
