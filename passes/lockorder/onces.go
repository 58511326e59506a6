package lockorder

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// onceCalls reports the calls of (*sync.Once).Do in f whose function
// calls Do on the same Once again, directly or through its callees (see
// summary's onces.go): the inner Do waits for the outer one, which waits
// for its function, for ever. A Once is no node of the lock-order graph:
// Do holds it only while its own function runs, and what that function
// takes under the caller's locks is checked at the call like any callee's
// locks.
func (c *checker) onceCalls(f *summary.Func) {
	for _, b := range f.Fn.Blocks {
		if !f.Flow.Reachable(b) {
			continue // behind a branch on a false constant
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if once, ok := summary.OnceDo(call.Common()); ok {
				c.onceReentry(f, call, once)
			}
		}
	}
}

// onceReentry reports call, a call of Do on once, when the function it
// runs takes once again.
func (c *checker) onceReentry(f *summary.Func, call *ssa.Call, once ssa.Value) {
	id := f.Flow.IDOf(once)
	if id.Key == "" {
		return
	}
	_, takes := c.res.CallEffects(f.Flow, call.Common(), summary.OnceTakes)
	for _, t := range takes {
		if t.Lock.Key != id.Key {
			continue
		}
		via := "the func value"
		if g, _ := summary.CalledFn(call.Call.Args[1]); g != nil {
			via = strings.TrimPrefix(summary.SSAFuncName(g, nil), c.pass.Pkg.Name()+".")
			if g.Parent() != nil {
				via = "its func literal"
			}
		}
		name := id.Name // the Once as written: zonesOnce, c.once
		if ce := c.calls.At(call.Pos()); ce != nil {
			if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
				name = types.ExprString(sel.X)
			}
		}
		c.report(call.Pos(), "double-lock", fmt.Sprintf("%s.Do called again by %s, which it runs: the inner Do waits for the outer one for ever", name, via), lockstate.Held{})
		return
	}
}
