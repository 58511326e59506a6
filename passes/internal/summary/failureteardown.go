package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A function that made an object and fails before it hands it back tears
// it down again in a deferred closure:
//
//	cc, err := NewClient(target, opts...)
//	...
//	defer func() {
//		if err != nil {
//			cc.Close() // waits for cc's own goroutines to stop
//		}
//	}()
//
// What that teardown waits for is the object's own machinery, which
// nothing outside has seen yet, and only on the way out of a failure.
// A maintainer holding a lock across the function is not waiting behind
// it in the program as it normally runs, so what blocks there is only
// plausible (a note), as behind a debug switch (envgates.go).
//
// The parent must be a function of the package (not a method, not a
// closure) handed nothing of its caller's: its parameters are plain data,
// contexts and the package's own options. A method's receiver, a pointer,
// a callback or a connection handed in may be what the teardown waits on
// (a pump of the caller's hub that takes the caller's lock, a write to
// the caller's connection), and stays proven. The closure must be
// deferred by its parent and nothing else; the call
// must run only when the parent's error result, the variable every
// return of the parent returns, is non-nil; and the call's receiver must
// be an object the parent allocated or had a constructor of the package
// allocate, held in a variable set once.

// failureTeardown returns why call, in fn, is only plausible when it
// tears down a fresh object on a failure of fn's parent, or "".
func (a *analyzer) failureTeardown(fn *ssa.Function, call ssa.CallInstruction) string {
	parent := fn.Parent()
	if parent == nil || call.Block() == nil || !handedNothing(parent) {
		return ""
	}
	mc := deferredOnly(parent, fn)
	if mc == nil {
		return ""
	}
	failing := false
	for _, c := range a.guardsOf(fn).when(call.Block()) {
		if c.Param >= 0 || c.Path != "" || !c.Nil || c.Value || c.Opt != "" || -1-c.Param >= len(mc.Bindings) {
			continue
		}
		if cell, ok := mc.Bindings[-1-c.Param].(*ssa.Alloc); ok && returnedError(parent, cell) {
			failing = true
			break
		}
	}
	if !failing {
		return ""
	}
	c := call.Common()
	var recv ssa.Value
	switch {
	case c.IsInvoke():
		recv = c.Value
	case c.Signature().Recv() != nil && len(c.Args) > 0:
		recv = c.Args[0]
	default:
		return ""
	}
	if !a.freshIn(parent, boundValue(fn, mc, recv)) {
		return ""
	}
	return "only when " + SSAFuncName(parent, a.pkg.Pkg) + " fails, tearing down what it made"
}

// deferredOnly returns the closure of fn that parent makes, when its
// only use is a defer statement's call.
func deferredOnly(parent, fn *ssa.Function) *ssa.MakeClosure {
	var found *ssa.MakeClosure
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			if found != nil {
				return nil
			}
			for _, ref := range *mc.Referrers() {
				if d, ok := ref.(*ssa.Defer); !ok || d.Call.Value != ssa.Value(mc) {
					return nil
				}
			}
			found = mc
		}
	}
	return found
}

// returnedError reports whether cell, a variable of parent of type error,
// is what every return of parent returns last.
func returnedError(parent *ssa.Function, cell *ssa.Alloc) bool {
	if !types.Identical(cell.Type().(*types.Pointer).Elem(), types.Universe.Lookup("error").Type()) {
		return false
	}
	any := false
	for _, b := range parent.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return false
		}
		ld, ok := ret.Results[len(ret.Results)-1].(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || ld.X != ssa.Value(cell) {
			return false
		}
		any = true
	}
	return any
}

// boundValue returns the value of the parent's that v, a captured
// variable of the closure fn (or its load) that mc makes, stands for: the
// binding, or the one value stored into the captured variable; nil
// otherwise.
func boundValue(fn *ssa.Function, mc *ssa.MakeClosure, v ssa.Value) ssa.Value {
	byRef := false
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		v, byRef = ld.X, true
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	for i, q := range fn.FreeVars {
		if q != fv || i >= len(mc.Bindings) {
			continue
		}
		b := mc.Bindings[i]
		if !byRef {
			return b
		}
		cell, ok := b.(*ssa.Alloc)
		if !ok {
			return nil
		}
		return lockstate.SetOnce(cell)
	}
	return nil
}

// freshIn reports whether v is an object fn allocates, or the pointer a
// constructor of the package that fn calls allocates.
func (a *analyzer) freshIn(fn *ssa.Function, v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		return x.Parent() == fn && x.Heap && !isCell(x)
	case *ssa.Extract:
		call, ok := x.Tuple.(*ssa.Call)
		return ok && x.Index == 0 && a.constructor(call)
	case *ssa.Call:
		return a.constructor(x)
	}
	return false
}

// constructor reports whether call is of a function of the package that
// allocates the pointer it returns first.
func (a *analyzer) constructor(call *ssa.Call) bool {
	g := StaticCallee(call.Common())
	return g != nil && g.Pkg == a.pkg && len(g.Blocks) > 0 && allocatesFirstResult(g)
}

// handedNothing reports whether fn is a function of its package, not a
// method or a closure, whose parameters are all plain data (numbers,
// strings, bytes), contexts or the package's own option types.
func handedNothing(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Pkg == nil {
		return false
	}
	for _, p := range fn.Params {
		if !plainParam(p.Type(), fn.Pkg.Pkg) {
			return false
		}
	}
	return true
}

func plainParam(t types.Type, pkg *types.Package) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		return true
	case *types.Slice:
		return plainParam(u.Elem(), pkg)
	case *types.Array:
		return plainParam(u.Elem(), pkg)
	case *types.Named:
		if isNamed(u, "context", "Context") {
			return true
		}
		if u.Obj().Pkg() == pkg && optionName(u.Obj().Name()) {
			switch u.Underlying().(type) {
			case *types.Signature, *types.Interface:
				return true // the package's functional options
			}
		}
		_, basic := u.Underlying().(*types.Basic)
		return basic
	}
	return false
}
