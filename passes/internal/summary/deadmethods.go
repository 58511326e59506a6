package summary

import (
	"go/types"
	"iter"

	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"golang.org/x/tools/go/ssa"
)

// This file finds the methods that nothing can call: methods of an
// unexported type that a type embedding it hides with its own method of the
// same name (batchTxBuffered.CommitAndStop hides batchTx.CommitAndStop),
// that no code of the package names and that no method set reaches. A
// finding inside one describes a path that never runs.

// Unreachable reports whether fn (or the method a closure belongs to) can
// never be called.
func (r *Result) Unreachable(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	// Computed on first use, once.
	r.a.deadOnce.Do(func() { r.a.dead = r.a.deadMethods() })
	return r.a.dead[fn]
}

// deadMethods returns the package's hidden methods of unexported types
// that are never referred to, directly or through a method set that can be
// called from elsewhere.
func (a *analyzer) deadMethods() map[*ssa.Function]bool {
	hidden := a.hiddenMethods()
	cands := map[*ssa.Function]bool{}
	for _, fn := range a.srcFuncs {
		if fn.Parent() != nil || srcname.InTest(a.pass.Fset, fn.Pos()) {
			continue
		}
		obj, _ := fn.Object().(*types.Func)
		recv := fn.Signature.Recv()
		if obj == nil || recv == nil || !hidden[obj] {
			continue
		}
		if n := namedPointee(recv.Type()); n != nil && !n.Obj().Exported() && !a.handedOut(n.Origin()) {
			cands[fn] = true
		}
	}
	if len(cands) == 0 {
		return nil
	}
	live := func(fn *ssa.Function) {
		if fn != nil {
			delete(cands, fn)
			delete(cands, fn.Origin())
		}
	}
	// Every function an instruction names: calls, method values, go and
	// defer statements, functions stored as values.
	scan := func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(nil) {
					if op == nil {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok {
						live(f)
						live(a.declared(f)) // the method a wrapper calls
					}
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					a.methodSetLive(mi.X.Type(), live)
				}
			}
		}
	}
	for _, fn := range a.srcFuncs {
		scan(fn)
	}
	// Other packages can convert the exported types to interfaces.
	for _, m := range a.pkg.Members {
		if t, ok := m.(*ssa.Type); ok && t.Object().Exported() {
			a.methodSetLive(t.Type(), live)
		}
	}
	return cands
}

// hiddenMethods returns the methods of the package's types that a type
// embedding them hides with a method of the same name.
func (a *analyzer) hiddenMethods() map[*types.Func]bool {
	out := map[*types.Func]bool{}
	outers := map[*types.TypeName]*types.MethodSet{} // built for the types that embed one of the package's
	for tn, inner := range embeddings(a.pass.Pkg.Scope()) {
		if inner.Obj().Pkg() != a.pass.Pkg {
			continue
		}
		outer := outers[tn]
		if outer == nil {
			outer = types.NewMethodSet(types.NewPointer(tn.Type()))
			outers[tn] = outer
		}
		for j := range inner.NumMethods() {
			m := inner.Method(j)
			if sel := outer.Lookup(m.Pkg(), m.Name()); sel != nil && sel.Obj() != m {
				out[m] = true
			}
		}
	}
	return out
}

// embeddings yields, for each struct type declared in scope, the named
// types its embedded fields name (T or *T).
func embeddings(scope *types.Scope) iter.Seq2[*types.TypeName, *types.Named] {
	return func(yield func(*types.TypeName, *types.Named) bool) {
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			st, ok := tn.Type().Underlying().(*types.Struct)
			if !ok {
				continue
			}
			for i := range st.NumFields() {
				f := st.Field(i)
				if !f.Embedded() {
					continue
				}
				if inner := namedPointee(f.Type()); inner != nil && !yield(tn, inner) {
					return
				}
			}
		}
	}
}

// methodSetLive marks live the methods that the method sets of t and *t
// reach, through promotion wrappers too.
func (a *analyzer) methodSetLive(t types.Type, live func(*ssa.Function)) {
	if _, ok := t.Underlying().(*types.Interface); ok {
		return
	}
	for _, typ := range []types.Type{t, types.NewPointer(t)} {
		if p, ok := t.(*types.Pointer); ok && typ != t {
			typ = p // *T already: no **T
		}
		mset := a.pkg.Prog.MethodSets.MethodSet(typ)
		for i := range mset.Len() {
			fn := a.pkg.Prog.MethodValue(mset.At(i))
			if fn == nil {
				continue
			}
			live(fn)
			live(a.declared(fn)) // the method a promotion wrapper calls
		}
	}
}

// handedOut reports whether the exported API passes values of the
// unexported type n in or out (inAPI, both ways), so that other packages
// may hold one.
func (a *analyzer) handedOut(n *types.Named) bool {
	return a.inAPI(n, false) || a.inAPI(n, true)
}
