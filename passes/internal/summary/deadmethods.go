package summary

import (
	"go/types"

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
	// Computed on first use, once: building the method sets' wrappers may
	// wait for SSA construction, which a.mu must not be held across.
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
		if fn.Parent() != nil || inTestFile(a.pass.Fset, fn.Pos()) {
			continue
		}
		obj, _ := fn.Object().(*types.Func)
		recv := fn.Signature.Recv()
		if obj == nil || recv == nil || !hidden[obj] {
			continue
		}
		if n := namedPointee(recv.Type()); n != nil && !n.Obj().Exported() && !a.inExportedAPI(n) {
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
						if f.Synthetic != "" {
							live(a.wrapped(f))
						}
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
	scope := a.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		var outer *types.MethodSet // built for the types that embed one of the package's
		for i := range st.NumFields() {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			inner := namedPointee(f.Type())
			if inner == nil || inner.Obj().Pkg() != a.pass.Pkg {
				continue
			}
			if outer == nil {
				outer = types.NewMethodSet(types.NewPointer(tn.Type()))
			}
			for j := range inner.NumMethods() {
				m := inner.Method(j)
				if sel := outer.Lookup(m.Pkg(), m.Name()); sel != nil && sel.Obj() != m {
					out[m] = true
				}
			}
		}
	}
	return out
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
			if fn.Synthetic != "" {
				live(a.wrapped(fn))
			}
		}
	}
}

// wrapped returns the method a synthetic wrapper calls, or nil.
func (a *analyzer) wrapped(w *ssa.Function) *ssa.Function {
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if f := c.Common().StaticCallee(); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// inExportedAPI reports whether values of the named type n can reach other
// packages: as a parameter or result of an exported function or method, or
// as an exported field or embedded type of an exported struct type.
func (a *analyzer) inExportedAPI(n *types.Named) bool {
	if a.apiTypes == nil {
		a.apiTypes = map[*types.Named]bool{}
		var mark func(t types.Type)
		mark = func(t types.Type) {
			switch u := types.Unalias(t).(type) {
			case *types.Named:
				a.apiTypes[u.Origin()] = true
			case *types.Pointer:
				mark(u.Elem())
			case *types.Slice:
				mark(u.Elem())
			case *types.Array:
				mark(u.Elem())
			case *types.Chan:
				mark(u.Elem())
			case *types.Map:
				mark(u.Key())
				mark(u.Elem())
			}
		}
		markSig := func(sig *types.Signature) {
			for i := range sig.Params().Len() {
				mark(sig.Params().At(i).Type())
			}
			for i := range sig.Results().Len() {
				mark(sig.Results().At(i).Type())
			}
		}
		scope := a.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			switch obj := obj.(type) {
			case *types.Func:
				markSig(obj.Signature())
			case *types.Var:
				mark(obj.Type())
			case *types.TypeName:
				named, ok := obj.Type().(*types.Named)
				if !ok {
					continue
				}
				for i := range named.NumMethods() {
					if m := named.Method(i); m.Exported() {
						markSig(m.Signature())
					}
				}
				if st, ok := named.Underlying().(*types.Struct); ok {
					for i := range st.NumFields() {
						if f := st.Field(i); f.Exported() {
							mark(f.Type())
						}
					}
				}
			}
		}
	}
	return a.apiTypes[n.Origin()]
}
