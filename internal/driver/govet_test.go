package driver

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/report"
)

// vetStdout is go vet -json output as the go command writes it: one object
// per vetted package, "{}" for a package without diagnostics, concatenated.
const vetStdout = `{}
{
	"example.com/m/a [example.com/m/a.test]": {
		"heldcall": [
			{
				"category": "sleep",
				"posn": "/m/a/a.go:12:12",
				"end": "/m/a/a.go:12:12",
				"message": "mu held across call of time.Sleep (locked at a.go:11)",
				"related": [
					{
						"posn": "/m/a/a.go:11:9",
						"end": "/m/a/a.go:11:9",
						"message": "mu locked here"
					}
				]
			}
		]
	}
}
{
	"example.com/m/b": {
		"heldcall": [
			{
				"category": "callback",
				"posn": "/m/b/b.go:9:5",
				"end": "/m/b/b.go:9:5",
				"message": "mu held across call of func value job (locked at b.go:8)",
				"suggested_fixes": [
					{
						"message": "release mu before the call",
						"edits": [
							{"filename": "/m/b/b.go", "start": 80, "end": 85, "new": "mu.Unlock()"},
							{"filename": "/m/b/b.go", "start": 87, "end": 98, "new": "job()"}
						]
					}
				]
			}
		],
		"lockorder": {
			"error": "internal error:\nsomething broke"
		}
	}
}
{}
`

func TestParseVetJSON(t *testing.T) {
	diags, errs, err := parseVetJSON(strings.NewReader(vetStdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 2 {
		t.Fatalf("got %d diagnostics, want 2: %+v", len(diags), diags)
	}
	if d := diags[0]; d.Package != "example.com/m/a" || d.Analyzer != "heldcall" || d.Category != "sleep" ||
		d.Posn != "/m/a/a.go:12:12" || len(d.Related) != 1 || d.Related[0].Message != "mu locked here" {
		t.Errorf("first diagnostic = %+v", d)
	}
	d := diags[1]
	if d.Package != "example.com/m/b" || len(d.SuggestedFixes) != 1 || len(d.SuggestedFixes[0].Edits) != 2 {
		t.Fatalf("second diagnostic = %+v", d)
	}
	if e := d.SuggestedFixes[0].Edits[1]; e.Filename != "/m/b/b.go" || e.Start != 87 || e.End != 98 || e.New != "job()" {
		t.Errorf("edit = %+v", e)
	}
	want := []report.PackageError{{Package: "example.com/m/b", Message: "lockorder: internal error: something broke"}}
	if !reflect.DeepEqual(errs, want) {
		t.Errorf("errors = %q, want %q", errs, want)
	}
}

func TestParseVetJSONMalformed(t *testing.T) {
	diags, _, err := parseVetJSON(strings.NewReader(`{"p": {"heldcall": []}} {"p": `))
	if err == nil {
		t.Fatal("no error for truncated JSON")
	}
	if len(diags) != 0 {
		t.Errorf("diags = %v", diags)
	}
	if _, _, err := parseVetJSON(strings.NewReader(`{"p": {"heldcall": 3}}`)); err == nil {
		t.Error("no error for a result that is neither a list nor an error")
	}
}

// vetStderr is go vet's stderr for a syntax error, type errors, a test
// variant (two header lines), an analyzer panic, a test file that imports a
// missing package (no header, continuation line) and download progress.
const vetStderr = `go: downloading example.com/dep v1.0.0
badtestimp/a_test.go:2:8: no required module provides package example.com/nope; to add it:
	go get example.com/nope
# example.com/t/syn
syn/s.go:3:9: expected ')', found '{' (and 1 more errors)
# example.com/t/broken
broken/b.go:3:23: cannot use "x" (untyped string constant) as int value in return statement
broken/b.go:5:12: undefined: undefined
# example.com/t/badtest
# [example.com/t/badtest]
badtest/a_test.go:2:23: cannot use "s" (untyped string constant) as int value in return statement
	have (string)
	want (int)
# example.com/t/apanic
panic: boom

goroutine 20 [running]:
main.init.func1(0x6cc380?)
	../tool/main.go:26 +0x1bd
created by golang.org/x/tools/go/analysis/unitchecker.run.func5 in goroutine 1
	/root/go/pkg/mod/golang.org/x/tools@v0.52.0/go/analysis/unitchecker/unitchecker.go:502 +0x47
`

func TestParseVetStderr(t *testing.T) {
	got := parseVetStderr(vetStderr, func(file string) string {
		if file == "badtestimp/a_test.go" {
			return "example.com/t/badtestimp"
		}
		return ""
	})
	want := []stderrError{
		{report.PackageError{Package: "example.com/t/badtestimp", Message: "badtestimp/a_test.go:2:8: no required module provides package example.com/nope; to add it: go get example.com/nope"}, false},
		{report.PackageError{Package: "example.com/t/syn", Message: "syn/s.go:3:9: expected ')', found '{' (and 1 more errors)"}, true},
		{report.PackageError{Package: "example.com/t/broken", Message: `broken/b.go:3:23: cannot use "x" (untyped string constant) as int value in return statement; broken/b.go:5:12: undefined: undefined`}, true},
		{report.PackageError{Package: "example.com/t/badtest", Message: `badtest/a_test.go:2:23: cannot use "s" (untyped string constant) as int value in return statement have (string) want (int)`}, true},
		{report.PackageError{Package: "example.com/t/apanic", Message: "panic: boom"}, true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	for _, e := range got {
		if strings.Contains(e.Message, "\n") {
			t.Errorf("message of %s spans lines: %q", e.Package, e.Message)
		}
	}
}

func TestParseVetStderrEmptyAndUnattributed(t *testing.T) {
	if got := parseVetStderr("", nil); len(got) != 0 {
		t.Errorf("empty stderr: %v", got)
	}
	got := parseVetStderr("go: something went wrong\n", func(string) string { return "x" })
	want := []stderrError{{report.PackageError{Message: "go: something went wrong"}, false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestPackageOfID(t *testing.T) {
	for id, want := range map[string]string{
		"example.com/m/a":                             "example.com/m/a",
		"example.com/m/a [example.com/m/a.test]":      "example.com/m/a",
		"example.com/m/a_test [example.com/m/a.test]": "example.com/m/a_test",
	} {
		if got := packageOfID(id); got != want {
			t.Errorf("packageOfID(%q) = %q, want %q", id, got, want)
		}
	}
}
