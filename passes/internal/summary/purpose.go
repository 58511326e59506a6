package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// GuardsState reports whether the lock class guards some state of the
// package: somewhere in the package, while a lock of the class is held,
// a field, a package-level variable, an element or a map is read or
// written, or a function of the package runs. A lock that guards nothing
// serialises only the operations it is held across (a mutex that keeps
// wg.Add from racing wg.Wait): holding it across them is its purpose.
func (r *Result) GuardsState(class string) bool {
	if class == "" {
		return true
	}
	return r.a.guarding[class]
}

// visitor returns the lock-state visitor of fn that records which lock
// classes guard state (see GuardsState).
func (a *analyzer) visitor(fn *ssa.Function) func(ssa.Instruction, lockstate.State) {
	return func(instr ssa.Instruction, s lockstate.State) {
		if len(s.Held) == 0 || !a.touchesState(fn, instr) {
			return
		}
		for _, h := range s.Held {
			a.guarding[h.Class] = true
		}
	}
}

// touchesState reports whether instr reads or writes state other goroutines
// can see, or runs a function of the package (which may).
func (a *analyzer) touchesState(fn *ssa.Function, instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return !ownVar(fn, instr.Addr)
	case *ssa.UnOp:
		return instr.Op == token.MUL && !ownVar(fn, instr.X)
	case *ssa.MapUpdate, *ssa.Lookup:
		return true
	case *ssa.Call:
		if op := lockstate.OpOf(instr.Common()); op.Kind != lockstate.NoOp {
			return false
		}
		callee := StaticCallee(instr.Common())
		if callee == nil {
			return !instr.Call.IsInvoke() || !quietPackage(pkgPath(instr.Call.Method.Pkg()))
		}
		return callee.Pkg == a.pkg || callee.Pkg == nil
	}
	return false
}

// ownVar reports whether addr is a variable of fn (not a captured one).
func ownVar(fn *ssa.Function, addr ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	return ok && a.Parent() == fn
}

func pkgPath(p *types.Package) string {
	if p == nil {
		return ""
	}
	return p.Path()
}
