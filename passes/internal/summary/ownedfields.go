package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// OwnedPointerField reports whether the pointer field of the package's
// struct type named owns what it points to: every store into it is an
// object just allocated, or just returned by one of the package's private
// constructors, that goes nowhere else. No two objects then share what the
// field points to: a peer scope's *resourceScope is never a connection
// scope's, although both embed one.
func (r *Result) OwnedPointerField(named *types.Named, field string) bool {
	a := r.a
	f := fieldNamed(named, field)
	if f == nil || f.Pkg() != a.pkg.Pkg || named.Obj().Pkg() != a.pkg.Pkg {
		return false
	}
	return a.freshOnly(f)
}

// freshOnly reports whether the pointer field f is set somewhere, and
// only ever to objects just made that go nowhere else.
func (a *analyzer) freshOnly(f *types.Var) bool {
	if _, ok := f.Type().Underlying().(*types.Pointer); !ok {
		return false
	}
	stores := 0
	ok := a.eachFieldStore(f, func(_ *ssa.FieldAddr, st *ssa.Store) bool {
		stores++
		return a.freshObject(st.Val) && storedOnlyAt(st.Val, st)
	})
	return ok && stores > 0
}

// freshObject reports whether v is an object just made: allocated here,
// or returned by a private constructor of the package (privateObject, not
// counting parameters, which callers hand in).
func (a *analyzer) freshObject(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.Call:
		return a.privateObject(nil, v, strict)
	}
	return false
}

// storedOnlyAt reports whether the only use of v that can keep it is the
// store st: the other uses address its own fields.
func storedOnlyAt(v ssa.Value, st *ssa.Store) bool {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef:
		case *ssa.Store:
			if ref != st {
				return false
			}
		default:
			return false
		}
	}
	return true
}
