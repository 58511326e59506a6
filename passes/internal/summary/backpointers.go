package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file finds back-pointers that a constructor sets from its
// argument:
//
//	func (n *node) checkpoint() (*checkpoint, error) {
//		...
//		return &checkpoint{n: n, term: n.term}, nil
//	}
//
//	c, err := n.checkpoint()
//	c.n.install(snap) // c.n is n
//
// An unexported field that the package stores only in one function, only
// into the object that function allocates and returns, and only from one
// of its parameters, is at every call the argument passed there.

// A backPtr says which function sets a field, and from which parameter.
type backPtr struct {
	fn    *ssa.Function
	param int
}

// backPointer returns, for v a load of such a field of the object a call
// returned (c.n above), the call's argument the field was set from, or
// nil.
func (a *analyzer) backPointer(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	obj := fa.X
	if ex, ok := obj.(*ssa.Extract); ok && ex.Index == 0 {
		obj = ex.Tuple
	}
	call, ok := obj.(*ssa.Call)
	if !ok {
		return nil
	}
	f := FieldVar(fa)
	if f == nil {
		return nil
	}
	callee := StaticCallee(call.Common())
	if callee == nil {
		return nil
	}
	bp, ok := a.backPtrOf(f.Origin())
	if !ok || declaredFn(callee) != bp.fn || bp.param >= len(call.Call.Args) {
		return nil
	}
	return call.Call.Args[bp.param]
}

// backPtrOf returns the function that sets the unexported field f of a
// type of the package, and the parameter it sets it from, when f is a
// back-pointer as described above.
func (a *analyzer) backPtrOf(f *types.Var) (backPtr, bool) {
	if bp, ok := a.backPtrs[f]; ok {
		return bp, bp.fn != nil
	}
	if a.backPtrs == nil {
		a.backPtrs = map[*types.Var]backPtr{}
	}
	var bp backPtr
	ok := !f.Exported() && f.Pkg() == a.pkg.Pkg && a.eachFieldStore(f, func(fa *ssa.FieldAddr, st *ssa.Store) bool {
		g := fa.Parent()
		p, isParam := st.Val.(*ssa.Parameter)
		alloc, isAlloc := fa.X.(*ssa.Alloc)
		if !isParam || !isAlloc || !alloc.Heap || g.Parent() != nil || bp.fn != nil && bp.fn != g {
			return false
		}
		i := indexOf(g.Params, p)
		if i < 0 || bp.fn != nil && bp.param != i || !returnsOnly(g, alloc) {
			return false
		}
		bp = backPtr{g, i}
		return true
	}) && bp.fn != nil
	if !ok {
		bp = backPtr{}
	}
	a.backPtrs[f] = bp
	return bp, ok
}

// returnsOnly reports whether every return of fn yields obj, or nil, as
// its first result.
func returnsOnly(fn *ssa.Function, obj ssa.Value) bool {
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return false
		}
		switch r := ret.Results[0].(type) {
		case *ssa.Const:
			if !r.IsNil() {
				return false
			}
		default:
			if r != obj {
				return false
			}
		}
	}
	return true
}
