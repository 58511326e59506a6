package summary

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestUnreachableComputedOnce checks that the search for hidden methods
// runs once per package, also when it finds none: answering each function's
// question anew made a generated package of ten thousand types quadratic.
func TestUnreachableComputedOnce(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), Analyzer, "store", "server")
	for _, r := range results {
		res := r.Result.(*Result)
		if len(res.Funcs) == 0 {
			t.Fatalf("%s: no functions analysed", r.Pass.Pkg.Path())
		}
		for _, f := range res.Funcs {
			if res.Unreachable(f.Fn) {
				t.Errorf("%s: %s reported unreachable; the test packages hide no method", r.Pass.Pkg.Path(), f.Fn)
			}
		}
		ran := true
		res.a.deadOnce.Do(func() { ran = false })
		if !ran {
			t.Errorf("%s: the hidden-method search did not run on the first query", r.Pass.Pkg.Path())
		}
	}
}
