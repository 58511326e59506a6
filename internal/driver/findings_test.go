package driver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/testfile"

	"github.com/lockaudit/lockaudit"
	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/internal/rules"
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

// writeFile writes content to dir/name and returns the absolute name.
var writeFile = testfile.Write

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

// diag returns a heldcall diagnostic at file:line:col.
func diag(pkg, category, file string, line, col int, msg string, related ...jsonRelatedInfo) vetDiagnostic {
	posn := fmt.Sprintf("%s:%d:%d", file, line, col)
	return vetDiagnostic{Package: pkg, Analyzer: "heldcall", jsonDiagnostic: jsonDiagnostic{
		Category: category, Posn: posn, End: posn, Message: msg, Related: related,
	}}
}

// selectRules returns the selection of -enable and -disable for the
// analyzers of this build.
func selectRules(t *testing.T, enable, disable string) *rules.Selection {
	t.Helper()
	var names []string
	for _, a := range lockaudit.Analyzers() {
		names = append(names, a.Name)
	}
	sel, err := rules.Parse([]string{enable}, []string{disable}, names...)
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
	paths := &report.Paths{Cwd: dir, Root: dir}

	got := buildFindings(diags, findingOptions{sel: selectRules(t, "", ""), tests: true}, report.NewSources(), paths)
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

	got = buildFindings(diags, findingOptions{sel: selectRules(t, "", ""), tests: false}, report.NewSources(), paths)
	for _, f := range got {
		if strings.HasSuffix(f.File, "_test.go") {
			t.Errorf("-tests=false kept %s", f.File)
		}
	}
	if len(got) != 3 {
		t.Errorf("-tests=false: got %d findings, want 3", len(got))
	}

	got = buildFindings(diags, findingOptions{sel: selectRules(t, "", "heldcall/sleep"), tests: true}, report.NewSources(), paths)
	if len(got) != 1 || got[0].Category != "callback" {
		t.Errorf("-disable heldcall/sleep: got %+v", got)
	}
}
