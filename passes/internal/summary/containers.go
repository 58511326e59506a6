package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// elemOrigin resolves a func value read out of a container (a map, a
// slice, an array or a channel) c of fn: through every element written into
// that container. A container kept in a struct field (or a package-level
// variable) is every container stored in that field anywhere in the
// package: a queue's jobs are what its Submit appends, a watch stream's
// cancel functions what its Watch puts in the map. A container the
// package's callers hand in is theirs: its elements are supplied.
func (a *analyzer) elemOrigin(fn *ssa.Function, c ssa.Value, depth int) Origin {
	roots, leak := a.containerRoots(fn, c, depth)
	o := leak
	if len(roots) == 0 {
		return o
	}
	writes := a.elementWrites(roots)
	for _, w := range writes {
		o.merge(a.origin(w.fn, w.val, depth))
	}
	if len(writes) == 0 && o.Closed() {
		o.Unknown = "an element of a container the package never fills"
	}
	return o
}

// containerRoots returns the values through which the container c of fn
// is reached (the addresses of the field or variable that holds it, or c
// itself for a container built here) and, as an origin, what else it can
// hold that the package does not fill.
func (a *analyzer) containerRoots(fn *ssa.Function, c ssa.Value, depth int) ([]ssa.Value, Origin) {
	for range maxOriginDepth {
		switch x := c.(type) {
		case *ssa.ChangeType:
			c = x.X
			continue
		case *ssa.Slice:
			c = x.X
			continue
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, Origin{Unknown: "an element of a container received here"}
			}
			switch addr := x.X.(type) {
			case *ssa.FieldAddr:
				return a.fieldContainer(FieldVar(addr))
			case *ssa.Global:
				return a.globalContainer(addr)
			case *ssa.Alloc:
				return []ssa.Value{addr}, Origin{}
			case *ssa.FreeVar:
				return nil, a.bindingOrigin(fn, addr, depth, true) // the cell's container
			}
			return nil, Origin{Unknown: "an element of a container loaded through a pointer"}
		case *ssa.FieldAddr:
			// An array held in a struct: &s.slots.
			return a.fieldContainer(FieldVar(x))
		case *ssa.Global:
			return a.globalContainer(x)
		case *ssa.Parameter:
			// The callers' container: its elements are what they put in.
			o := a.paramOrigin(fn, x, depth)
			if o.Closed() {
				return nil, Origin{Unknown: "an element of a container passed to " + SSAFuncName(fn, a.pkg.Pkg)}
			}
			if o.Supplied != "" {
				o.Supplied = "an element of a container that callers pass"
			}
			return nil, Origin{Supplied: o.Supplied, Unknown: o.Unknown}
		case *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeChan, *ssa.Alloc, *ssa.Phi, *ssa.Call:
			if call, ok := x.(*ssa.Call); ok && !isAppend(call) {
				return nil, Origin{Unknown: "an element of a container returned by a call"}
			}
			return []ssa.Value{x}, Origin{}
		}
		break
	}
	return nil, Origin{Unknown: "an element of a container"}
}

// fieldContainer returns the addresses of a container field throughout
// the package. An exported field is filled by the package's users too.
func (a *analyzer) fieldContainer(f *types.Var) ([]ssa.Value, Origin) {
	if f == nil {
		return nil, Origin{Unknown: "an element of a container"}
	}
	f = f.Origin()
	var leak Origin
	switch {
	case f.Exported() && f.Pkg() != nil && internalPath(f.Pkg().Path()):
		leak.Unknown = "an element of exported field " + f.Name() + " of an internal package"
	case f.Exported():
		leak.Supplied = "an element of exported field " + f.Name()
	}
	if f.Pkg() != a.pkg.Pkg {
		if leak.Supplied == "" {
			leak.Unknown = "an element of field " + f.Name() + " of another package's type"
		}
		return nil, leak
	}
	var roots []ssa.Value
	for _, fa := range a.indexed().fieldAddrs[f] {
		roots = append(roots, fa)
	}
	return roots, leak
}

// globalContainer returns a package-level container variable.
func (a *analyzer) globalContainer(g *ssa.Global) ([]ssa.Value, Origin) {
	if g.Pkg != a.pkg {
		return nil, Origin{Unknown: "an element of variable " + g.Name() + " of another package"}
	}
	var leak Origin
	if obj := g.Object(); obj != nil && obj.Exported() {
		leak.Unknown = "an element of exported variable " + g.Name()
	}
	return []ssa.Value{g}, leak
}

// elementWrites returns the values written into the containers reached
// from roots: map updates, stores through an index, sends, appended
// elements. It follows the containers through loads and stores of their
// cells, appends, slicing and phis.
func (a *analyzer) elementWrites(roots []ssa.Value) []valueSite {
	var out []valueSite
	seen := map[ssa.Value]bool{}
	work := append([]ssa.Value(nil), roots...)
	add := func(v ssa.Value) {
		if v != nil && !seen[v] {
			work = append(work, v)
		}
	}
	elems := func(fn *ssa.Function, slice ssa.Value) {
		// The elements of append's second argument: a varargs array
		// (append(q, job)) or another container (append(q, more...)).
		if s, ok := slice.(*ssa.Slice); ok {
			if arr, ok := s.X.(*ssa.Alloc); ok && arr.Comment == "varargs" {
				for _, ref := range *arr.Referrers() {
					if ia, ok := ref.(*ssa.IndexAddr); ok {
						for _, r := range *ia.Referrers() {
							if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
								out = append(out, valueSite{fn, st.Val})
							}
						}
					}
				}
				return
			}
		}
		add(slice)
	}
	for len(work) > 0 && len(seen) < 4096 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				add(e)
			}
		case *ssa.Call:
			if isAppend(x) && len(x.Call.Args) == 2 {
				add(x.Call.Args[0])
				elems(x.Parent(), x.Call.Args[1])
			}
		}
		refs := v.Referrers()
		if g, ok := v.(*ssa.Global); ok {
			// A package-level container (a registry's map): SSA
			// keeps no referrers for it; the containers stored into
			// it and its loads stand in.
			for _, st := range a.indexed().globalStores[g] {
				add(st.val)
			}
			loads := a.globalUses().loads[g]
			refs = &loads
		}
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			fn := ref.Parent()
			switch r := ref.(type) {
			case *ssa.UnOp:
				if r.Op == token.MUL && r.X == v {
					add(r) // the container loaded from its cell
				}
			case *ssa.Store:
				if r.Addr == v {
					add(r.Val) // a container stored into the cell
				}
			case *ssa.IndexAddr:
				if r.X == v {
					for _, rr := range *r.Referrers() {
						if st, ok := rr.(*ssa.Store); ok && st.Addr == r {
							out = append(out, valueSite{fn, st.Val})
						}
					}
				}
			case *ssa.MapUpdate:
				if r.Map == v {
					out = append(out, valueSite{fn, r.Value})
				}
			case *ssa.Send:
				if r.Chan == v {
					out = append(out, valueSite{fn, r.X})
				}
			case *ssa.Call:
				if isAppend(r) && len(r.Call.Args) == 2 && r.Call.Args[0] == v {
					add(r)
				}
			case *ssa.Slice:
				add(r)
			case *ssa.Phi:
				add(r)
			case *ssa.ChangeType:
				add(r)
			}
		}
	}
	return out
}

// isAppend reports whether call is the append builtin.
func isAppend(call *ssa.Call) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "append"
}

// FixedContainer reports whether the field f holds a fixed partition: an
// array, or a slice that the package only ever sets to a newly made slice
// (make, a literal) and never grows, trims or reslices. The elements of a
// growing slice (a log's segments, a server's connections) are a
// collection, not shards.
func (r *Result) FixedContainer(f *types.Var) bool {
	return r.a.fixedContainer(f)
}

func (a *analyzer) fixedContainer(f *types.Var) bool {
	if f == nil {
		return false
	}
	t := f.Type().Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	switch t.(type) {
	case *types.Array:
		return true
	case *types.Slice:
	default:
		return false
	}
	f = f.Origin()
	if f.Pkg() != a.pkg.Pkg {
		return false // set where this package cannot see
	}
	for _, s := range a.indexed().fieldStores[f] {
		if !freshSlice(s.val) {
			return false
		}
	}
	// Elements assigned through an index keep the partition; an append
	// into the field's slice is a store of its result, seen above.
	return true
}

// freshSlice reports whether v is a newly made slice: make([]T, n), a
// slice literal, or nil.
func freshSlice(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return true
	case *ssa.Const:
		return v.IsNil()
	case *ssa.Slice:
		_, lit := v.X.(*ssa.Alloc)
		return lit
	}
	return false
}
