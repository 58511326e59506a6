// Package memfloor is the memory floor for lockaudit's vet tool: an analyzer
// that only builds SSA (buildssa) and exports one trivial fact per
// function. Run as a vet tool beside lockaudit on the same package
// (cmd/memfloor), its peak RSS is what any SSA-based analyzer with facts
// pays; lockaudit's own peak is measured against it (docs/measurements.md,
// "Memory on a huge package").
package memfloor

import (
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
)

// Analyzer builds the package's SSA form and exports a Fact for every
// package-level function and method.
var Analyzer = &analysis.Analyzer{
	Name:       "memfloor",
	Doc:        "build SSA and export one fact per function (a memory baseline)",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	FactTypes:  []analysis.Fact{new(Fact)},
	ResultType: reflect.TypeOf(0),
	Run:        run,
}

// Fact is the trivial per-function fact: the number of the function's
// basic blocks, so that it is not empty.
type Fact struct{ Blocks int }

// AFact marks Fact as an analysis fact.
func (*Fact) AFact() {}

func run(pass *analysis.Pass) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	n := 0
	for _, fn := range ssainfo.SrcFuncs {
		n++
		if fn.Parent() != nil {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil {
			continue
		}
		pass.ExportObjectFact(obj, &Fact{Blocks: len(fn.Blocks)})
	}
	return n, nil
}
