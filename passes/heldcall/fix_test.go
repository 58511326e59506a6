package heldcall_test

import (
	"os"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/heldcall"
)

// TestSuggestedFixes checks the fix that moves an explicit Unlock above
// the offending call. testdata/src/fixes/fixes.go.golden is fixes.go with
// every offered fix applied. The fix must be offered exactly on the
// findings whose expectation is a /* want */ comment in front of the call,
// and on none of the twins (a pointer or a field as the argument, a func
// field as the callee, a defer, a second lock held, a comment or another
// statement between, a call whose result is used, a wrapper release, a
// closure's inherited lock).
//
// RunWithSuggestedFixes compares only the fixes that were offered: a fix
// offered nowhere would pass it vacuously, so the lines are checked too.
func TestSuggestedFixes(t *testing.T) {
	// The registry's hooks are never set in the package: calling them is
	// a note, and fixes are offered on notes too.
	setFlag(t, "severity", "note")
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), heldcall.Analyzer, "fixes")

	var got []int
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			p := r.Pass.Fset.Position(d.Pos)
			got = append(got, p.Line)
			for _, fix := range d.SuggestedFixes {
				if !strings.HasPrefix(fix.Message, "release ") || !strings.HasSuffix(fix.Message, " before the call") {
					t.Errorf("%s: fix message %q, want \"release <lock> before the call\"", p, fix.Message)
				}
			}
		}
	}
	sort.Ints(got)

	src, err := os.ReadFile("testdata/src/fixes/fixes.go")
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "/* want") {
			want = append(want, i+1)
		}
	}
	if len(want) == 0 {
		t.Fatal("no /* want */ lines in testdata/src/fixes/fixes.go")
	}
	if !equalInts(got, want) {
		t.Errorf("fixes offered on lines %v of fixes.go, want exactly %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
