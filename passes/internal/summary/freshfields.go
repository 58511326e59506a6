package summary

import (
	"go/types"
	"slices"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// A field of an object that a function allocates is decided at a call in
// that function (a guard such as "if w.output != nil" in the callee) by
// its zero value, unless the function assigns it (evalCond) or hands the
// object, before or after, to code that may: a function of the package
// that writes the field, directly or through the functions it calls
// (w.init(); w.start()), a closure that does, or, for an exported field,
// any other package (encoding/json fills exported fields). A func value
// handed the object (the options of a constructor: for _, opt := range
// opts { opt(&w) }) may write an unexported field only if a function or
// closure of the package of the func value's type writes it, and an
// interface method only if a method of that name does.

// srcFuncs records each analysed package's source functions, closures
// included, for writersOf.
var srcFuncs sync.Map // *ssa.Package -> []*ssa.Function

// fieldWriters caches writersOf.
var fieldWriters sync.Map // *types.Var -> map[*ssa.Function]bool

// writersOf returns the functions of pkg that write field f, directly or
// through the functions of pkg they call.
func writersOf(pkg *ssa.Package, f *types.Var) map[*ssa.Function]bool {
	if w, ok := fieldWriters.Load(f); ok {
		return w.(map[*ssa.Function]bool)
	}
	v, _ := srcFuncs.Load(pkg)
	funcs, _ := v.([]*ssa.Function)
	writers := map[*ssa.Function]bool{}
	callees := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if fa, ok := instr.Addr.(*ssa.FieldAddr); ok && structField(fa.X.Type(), fa.Field) == f {
						writers[fn] = true
					}
				case ssa.CallInstruction:
					if g := instr.Common().StaticCallee(); g != nil && g.Pkg == pkg {
						callees[fn] = append(callees[fn], g)
					}
				case *ssa.MakeClosure:
					if g, ok := instr.Fn.(*ssa.Function); ok {
						callees[fn] = append(callees[fn], g) // a closure may run where it is made
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if !writers[fn] && slices.ContainsFunc(callees[fn], func(g *ssa.Function) bool { return writers[g] }) {
				writers[fn], changed = true, true
			}
		}
	}
	fieldWriters.Store(f, writers)
	return writers
}

// keptZero reports whether the field name of the object whose aliases (the
// allocation and the loads of its variable) fn has is still its zero
// value at call: no other call or closure of fn that is handed the object
// may write it (see above).
func keptZero(fn *ssa.Function, call *ssa.CallCommon, alloc *ssa.Alloc, aliases []ssa.Value, name string) bool {
	f := fieldNamed(alloc.Type(), name)
	if f == nil {
		return false
	}
	var writers map[*ssa.Function]bool
	if f.Pkg() == fn.Pkg.Pkg {
		writers = writersOf(fn.Pkg, f)
	}
	vals := slices.Clone(aliases)
	for i := 0; i < len(vals); i++ {
		a := vals[i]
		for _, ref := range *a.Referrers() {
			var c *ssa.CallCommon
			switch ref := ref.(type) {
			case ssa.CallInstruction:
				c = ref.Common()
			case *ssa.MakeInterface, *ssa.ChangeType:
				// The object as an interface value or under another
				// type: what is called on it counts too.
				vals = append(vals, ref.(ssa.Value))
				continue
			case *ssa.MakeClosure:
				if g, ok := ref.Fn.(*ssa.Function); ok && writers[g] {
					return false
				}
				continue
			default:
				continue
			}
			if c == call || !handedTo(c, a) {
				continue
			}
			if !mayWrite(fn, c, f, writers) {
				continue
			}
			return false
		}
	}
	return true
}

// handedTo reports whether call c is given v: as an argument, a receiver
// or the interface value a method is invoked on.
func handedTo(c *ssa.CallCommon, v ssa.Value) bool {
	return c.Value == v || slices.Contains(c.Args, v)
}

// mayWrite reports whether the call c, in fn, may write field f of an
// object it is handed.
func mayWrite(fn *ssa.Function, c *ssa.CallCommon, f *types.Var, writers map[*ssa.Function]bool) bool {
	if f.Pkg() != fn.Pkg.Pkg {
		return true // another package's object: its own code decides
	}
	if g := c.StaticCallee(); g != nil {
		if g.Pkg == fn.Pkg {
			return writers[g]
		}
		return f.Exported()
	}
	if f.Exported() {
		return true
	}
	// A func value or an interface method: only a function of the package
	// can reach an unexported field, so it writes the field only if one of
	// the writers can be what is called: a function or closure of the
	// func value's type, or a method of the invoked name.
	for w := range writers {
		if c.IsInvoke() {
			if w.Signature.Recv() != nil && w.Name() == c.Method.Name() {
				return true
			}
			continue
		}
		if w.Signature.Recv() == nil && types.Identical(w.Signature, c.Signature()) {
			return true
		}
	}
	return false
}

// fieldNamed returns the field name of the struct that t is, or points to.
func fieldNamed(t types.Type, name string) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

// callOf returns the call of a site, or nil for none.
func (st *site) callOf() *ssa.CallCommon {
	if st == nil {
		return nil
	}
	return st.call
}
