package summary

import (
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestFailureReachesDependents checks that a panic in lockfacts reaches the
// analyzers that use its result as an error naming lockfacts and the
// panic: the go vet driver would otherwise print only "failed
// prerequisites".
func TestFailureReachesDependents(t *testing.T) {
	pass := &analysis.Pass{
		Analyzer: Analyzer,
		Fset:     token.NewFileSet(),
		Pkg:      types.NewPackage("example.com/registry", "registry"),
		ResultOf: map[*analysis.Analyzer]any{}, // no SSA: run panics
	}
	res, err := runReportingErrors(pass)
	if err != nil {
		t.Fatalf("lockfacts returned an error (%v): the driver would hide it", err)
	}
	dependent := &analysis.Pass{ResultOf: map[*analysis.Analyzer]any{Analyzer: res}}
	_, release, err := Of(dependent)
	release() // a no-op on error, but callers defer it unconditionally
	if err == nil || !strings.HasPrefix(err.Error(), "lockfacts: internal error at example.com/registry: panic: ") {
		t.Fatalf("Of = %v, want lockfacts' internal error", err)
	}
}
