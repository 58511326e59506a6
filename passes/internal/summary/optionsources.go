package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An option flag is zero unless an option a setter made reached the
// configuration: these checks close the other ways a set flag can get
// there (see optionflags.go).
//
//   - A whole configuration copied from somewhere else (*o = p.opts, a
//     configuration kept in a map, a conversion from a preset type with
//     the same fields) may carry a set flag: every store of a value that
//     holds the configuration type by value, other than into a field,
//     must store a clean value (a zero value, a composite literal built
//     in the function, or what a function of the package returns that
//     is clean in turn), and no conversion may make one.
//   - Options the package keeps for everyone (an exported default list,
//     a setter of defaults) or reads back out of an interface (options
//     carried on a context) may hold a setter's option: a package
//     variable that can hold an option must be unexported and written
//     only by the module's own hooks (func literals stored only into
//     variables of an internal package, as gRPC's global dial options
//     are; elsewhere it is only read), and no type assertion outside
//     those hooks may produce an option. Such a hook is taken to be the
//     module's own: a module whose public package forwards its users'
//     options through it is not seen.
//
// Along the path from the configured object down to the flag, the
// fields' own stores must be clean too (cc.dopts = ... in a method of
// the package), and their addresses may only be read, written or handed
// to an option's apply.

// optionSourcesClosed reports whether fl's configuration and option types
// reach configurations only through the options applied to them.
func (a *analyzer) optionSourcesClosed(fl *optionFlag) bool {
	key := types.TypeString(fl.owner, nil) + "|" + types.TypeString(fl.option, nil)
	if closed, ok := a.optionSources[key]; ok {
		return closed
	}
	closed := a.sourcesClosed(fl)
	if a.optionSources == nil {
		a.optionSources = map[string]bool{}
	}
	a.optionSources[key] = closed
	return closed
}

// sourcesClosed computes optionSourcesClosed, in one pass over the
// package.
func (a *analyzer) sourcesClosed(fl *optionFlag) bool {
	hooks := a.internalHooks()
	optionVars := map[ssa.Value]bool{}
	for _, m := range a.pkg.Members {
		g, ok := m.(*ssa.Global)
		if !ok || !carries(g.Type().(*types.Pointer).Elem(), fl, map[types.Type]bool{}) {
			continue
		}
		if g.Object() != nil && g.Object().Exported() {
			return false
		}
		optionVars[g] = true
	}
	funcs := a.srcFuncs
	init := a.pkg.Func("init") // the package variables' initial values
	for _, fn := range funcs {
		if hooks[fn] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if len(optionVars) > 0 && fn != init && !readsOptionVars(instr, optionVars) {
					return false // a variable of options written outside a hook
				}
				switch x := instr.(type) {
				case *ssa.Store:
					if wholeStore(x) && holdsByValue(x.Val.Type(), fl.owner) && !a.cleanConfig(x.Val, fl, 0) {
						return false
					}
				case *ssa.Convert:
					if holdsByValue(x.Type(), fl.owner) {
						return false
					}
				case *ssa.ChangeType:
					if holdsByValue(x.Type(), fl.owner) && !types.Identical(x.X.Type(), x.Type()) {
						return false
					}
				case *ssa.TypeAssert:
					only := &optionFlag{option: fl.option}
					if carries(x.AssertedType, only, map[types.Type]bool{}) && !carries(x.X.Type(), only, map[types.Type]bool{}) {
						// An option out of something that is not one
						// (ctx.Value(k).([]Option)); narrowing an option
						// to its concrete type is not.
						return false
					}
				}
			}
		}
	}
	return true
}

// readsOptionVars reports whether instr uses the variables vars holds
// only to read them: a load whose value is only read (ranged over,
// indexed, sliced, measured, appended from), not a store into them, an
// address of a field or element, or a copy handed on.
func readsOptionVars(instr ssa.Instruction, vars map[ssa.Value]bool) bool {
	for _, op := range instr.Operands(nil) {
		if !vars[*op] {
			continue
		}
		ld, ok := instr.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || !readOnly(ld, 0) {
			return false
		}
	}
	return true
}

// readOnly reports whether v, a value read out of a variable of options,
// is only read in turn.
func readOnly(v ssa.Value, depth int) bool {
	if depth > maxCondDepth {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Index, *ssa.Lookup, *ssa.Field, *ssa.DebugRef, *ssa.Range:
		case *ssa.IndexAddr:
			for _, use := range *r.Referrers() {
				if ld, ok := use.(*ssa.UnOp); !ok || ld.Op != token.MUL {
					return false
				}
			}
		case *ssa.Slice:
			if !readOnly(r, depth+1) {
				return false
			}
		case *ssa.Phi:
			if !readOnly(r, depth+1) {
				return false
			}
		case *ssa.Call:
			b, ok := r.Call.Value.(*ssa.Builtin)
			if !ok {
				return false
			}
			switch b.Name() {
			case "len", "cap", "append":
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// wholeStore reports whether st stores a value whole through a pointer
// (*o = p.opts), not into a field or a local variable: a copy into a
// local is judged where it goes next (cleanConfig, cleanPath).
func wholeStore(st *ssa.Store) bool {
	switch addr := st.Addr.(type) {
	case *ssa.FieldAddr:
		return false
	case *ssa.Alloc:
		return addr.Heap
	}
	return true
}

// cleanPath reports whether the fields on the way from the configured
// object down to addr, the configuration the flag is read from, are set
// only to clean values and their addresses go nowhere but to loads,
// stores, deeper fields and options' applies.
func (a *analyzer) cleanPath(addr ssa.Value, fl *optionFlag) bool {
	ix := a.indexed()
	for {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			// The configured object itself: what is stored into it
			// whole (o := cc.opts, a copy in a local) must be clean.
			if alloc, ok := addr.(*ssa.Alloc); ok {
				for _, ref := range *alloc.Referrers() {
					if st, ok := ref.(*ssa.Store); ok && st.Addr == addr && !a.cleanConfig(st.Val, fl, 0) {
						return false
					}
				}
			}
			return true
		}
		f := FieldVar(fa)
		if f == nil {
			return false
		}
		for _, st := range ix.fieldStores[f.Origin()] {
			if !a.cleanConfig(st.val, fl, 0) {
				return false
			}
		}
		for _, use := range ix.fieldAddrs[f.Origin()] {
			if !configAddrUses(use, fl) {
				return false
			}
		}
		addr = fa.X
	}
}

// configAddrUses reports whether the address of a configuration field is
// only read, written, taken apart into fields or handed to an option.
func configAddrUses(addr *ssa.FieldAddr, fl *optionFlag) bool {
	for _, ref := range *addr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp, *ssa.FieldAddr, *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != ssa.Value(addr) {
				return false
			}
		case ssa.CallInstruction:
			c := ref.Common()
			if !types.Identical(c.Value.Type(), fl.option) {
				return false // not an option's apply
			}
		default:
			return false
		}
	}
	return true
}

// cleanConfig reports whether v, a value holding a configuration, is a
// zero value, a composite literal built in its function, or what a
// function of the package returns that is clean in turn.
func (a *analyzer) cleanConfig(v ssa.Value, fl *optionFlag, depth int) bool {
	if depth > maxCondDepth {
		return false
	}
	switch x := v.(type) {
	case *ssa.Const:
		return true // a zero value
	case *ssa.UnOp:
		tmp, ok := x.X.(*ssa.Alloc)
		if x.Op != token.MUL || !ok || tmp.Heap {
			return false
		}
		// A composite literal's temporary: what is stored into it
		// whole is clean too (its fields' stores are checked by field).
		for _, ref := range *tmp.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(tmp) && !a.cleanConfig(st.Val, fl, depth+1) {
				return false
			}
		}
		return true
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !a.cleanConfig(e, fl, depth+1) {
				return false
			}
		}
		return true
	case *ssa.Extract:
		call, ok := x.Tuple.(*ssa.Call)
		return ok && a.cleanResult(call, x.Index, fl, depth)
	case *ssa.Call:
		return a.cleanResult(x, 0, fl, depth)
	}
	return false
}

// cleanResult reports whether the i'th result of call, of a function of
// the package, is clean at every return.
func (a *analyzer) cleanResult(call *ssa.Call, i int, fl *optionFlag, depth int) bool {
	g := StaticCallee(call.Common())
	if g == nil || g.Pkg != a.pkg || len(g.Blocks) == 0 {
		return false
	}
	for _, b := range g.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if ok && (i >= len(ret.Results) || !a.cleanConfig(ret.Results[i], fl, depth+1)) {
			return false
		}
	}
	return true
}

// holdsByValue reports whether a value of type t holds a value of type
// owner in itself (not behind a pointer): owner, or a struct or array
// with one inside.
func holdsByValue(t, owner types.Type) bool {
	return holds(t, owner, 0)
}

func holds(t, owner types.Type, depth int) bool {
	if types.Identical(t, owner) {
		return true
	}
	if depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if holds(u.Field(i).Type(), owner, depth+1) {
				return true
			}
		}
	case *types.Array:
		return holds(u.Elem(), owner, depth+1)
	}
	return false
}

// internalHooks returns the package's func literals stored only into
// variables of internal packages: hooks only the module's own code can
// call (gRPC's internal.AddGlobalDialOptions), with the literals they
// make in turn.
func (a *analyzer) internalHooks() map[*ssa.Function]bool {
	if a.hooks != nil {
		return a.hooks
	}
	hooks := map[*ssa.Function]bool{}
	a.hooks = hooks
	for _, fn := range a.srcFuncs {
		if fn.Parent() == nil || !internalHook(fn) {
			continue
		}
		var add func(f *ssa.Function)
		add = func(f *ssa.Function) {
			hooks[f] = true
			for _, anon := range f.AnonFuncs {
				add(anon)
			}
		}
		add(fn)
	}
	return hooks
}

// internalHook reports whether every use of the func literal fn is a
// store into a variable of an internal package (also as an interface
// value: gRPC keeps its hooks in variables of type any).
func internalHook(fn *ssa.Function) bool {
	var val ssa.Value = fn
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == ssa.Value(fn) {
				val = mc
			}
		}
	}
	used := false
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok && v == val {
				continue
			}
			for _, op := range instr.Operands(nil) {
				if *op != val {
					continue
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					for _, ref := range *mi.Referrers() {
						if !storedInInternal(ref, mi) {
							return false
						}
					}
				} else if !storedInInternal(instr, val) {
					return false
				}
				used = true
			}
		}
	}
	return used
}

// storedInInternal reports whether instr stores val into a variable of an
// internal package.
func storedInInternal(instr ssa.Instruction, val ssa.Value) bool {
	st, ok := instr.(*ssa.Store)
	if !ok || st.Val != val {
		return false
	}
	g, ok := st.Addr.(*ssa.Global)
	return ok && g.Pkg != nil && internalPath(g.Pkg.Pkg.Path())
}
