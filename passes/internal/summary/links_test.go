package summary

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFlowsIntoIsASet checks that the parameters a parameter is linked
// into are kept as a set. Kept as a list, every call that links it again
// added a repeat, and every round of the fixpoint through mutually
// recursive rewriters multiplied them: a generated SQL parser's AST code
// grew lists of a million entries and took 16 GB.
func TestFlowsIntoIsASet(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), Analyzer, "links")
	for _, r := range results {
		res := r.Result.(*Result)
		linked := 0
		for mode := range nModes {
			for fn, byParam := range res.a.params[mode].flowsInto {
				for i, into := range byParam {
					linked += len(into)
					if !slices.IsSorted(into) || len(slices.Compact(slices.Clone(into))) != len(into) {
						t.Errorf("mode %d: %s parameter %d flows into %v, want a sorted set", mode, fn.Name(), i, into)
					}
				}
			}
		}
		if linked == 0 {
			t.Errorf("no parameter linked into another: the test package no longer exercises flowsInto")
		}
	}
}
