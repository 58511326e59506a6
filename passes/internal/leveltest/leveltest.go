// Package leveltest helps the analyzers' analysistest corpora state each
// finding's confidence: a note's want pattern says "plausible" (its
// message ends "(plausible: why)"), and a warning's cannot, or it would not
// match.
package leveltest

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/internal/confidence"
)

// ReportNotes makes the analyzers report notes for the rest of the test.
func ReportNotes(t *testing.T) {
	t.Helper()
	old := confidence.Threshold()
	confidence.SetThreshold(confidence.Note)
	t.Cleanup(func() { confidence.SetThreshold(old) })
}

// SetFlag sets one of a's flags for the rest of the test.
func SetFlag(t *testing.T, a *analysis.Analyzer, name, value string) {
	t.Helper()
	f := a.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("%s has no flag %s", a.Name, name)
	}
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Value.Set(old); err != nil {
			t.Errorf("restoring %s.%s: %v", a.Name, name, err)
		}
	})
}

// Check checks that the test packages type-check, and that every note
// among the results is expected as one: the want comment on its line says
// "plausible".
func Check(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		if r.Err != nil || r.Pass == nil {
			t.Errorf("analysis failed: %v", r.Err)
			continue
		}
		// analysistest only logs a test package's type errors: a case
		// that does not compile tests nothing.
		for _, err := range r.Pass.TypeErrors {
			t.Errorf("%s: type error in test data: %v", r.Pass.Pkg.Path(), err)
		}
		for _, d := range r.Diagnostics {
			if confidence.Of(d.Message) != confidence.Note {
				continue
			}
			p := r.Pass.Fset.Position(d.Pos)
			src, err := os.ReadFile(p.Filename)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(src), "\n")
			if p.Line > len(lines) || !strings.Contains(lines[p.Line-1], "plausible") {
				t.Errorf("%s: %q is a note, but its want pattern does not say plausible", p, d.Message)
			}
		}
	}
}
