package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// fieldValues records, for unexported interface-typed fields of the
// package's types, the concrete types the package stores into them (a
// cache's recent list set to an *LRU). When every store is of a concrete
// type, a call through the field is a call of those types' methods. (Func
// fields are resolved with every other func value, see origins.go.)
type fieldValues struct {
	types map[string][]types.Type // the concrete types stored
	open  map[string]bool         // fields that also receive other values
}

func collectFieldValues(funcs []*ssa.Function, flows map[*ssa.Function]*lockstate.Result) *fieldValues {
	fv := &fieldValues{types: map[string][]types.Type{}, open: map[string]bool{}}
	forEachStore(funcs, flows, func(flow *lockstate.Result, st *ssa.Store) {
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			return
		}
		t := fa.Type().Underlying().(*types.Pointer).Elem()
		if !types.IsInterface(t) {
			return
		}
		class := flow.IDOf(fa).Class
		if class == "" {
			return
		}
		if f := FieldVar(fa); f == nil || f.Exported() {
			fv.open[class] = true // other packages may set it
			return
		}
		switch v := st.Val.(type) {
		case *ssa.Const:
			if v.IsNil() {
				return
			}
		case *ssa.MakeInterface:
			if !types.IsInterface(v.X.Type()) {
				fv.types[class] = append(fv.types[class], v.X.Type())
				return
			}
		}
		fv.open[class] = true
	})
	return fv
}

// FieldVar returns the struct field a FieldAddr selects.
func FieldVar(fa *ssa.FieldAddr) *types.Var {
	t := fa.X.Type().Underlying().(*types.Pointer).Elem()
	st, ok := t.Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// FieldMethods returns the methods that an interface call of m on a value
// loaded from a field of the package can dispatch to, when the package
// stores only values of known concrete types into that field.
func (r *Result) FieldMethods(flow *lockstate.Result, v ssa.Value, m *types.Func) ([]*ssa.Function, bool) {
	class, ok := r.fieldClass(flow, v)
	if !ok {
		return nil, false
	}
	ts := r.a.fields.types[class]
	if len(ts) == 0 {
		return nil, false
	}
	var out []*ssa.Function
	for _, t := range ts {
		sel := r.Pkg.Prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
		if sel == nil {
			return nil, false
		}
		// The declared method: for a generic type instantiated with the
		// enclosing function's type parameters (a *LRU[K, V] stored by a
		// generic constructor), its generic body.
		obj, ok := sel.Obj().(*types.Func)
		if !ok {
			return nil, false
		}
		fn := r.Pkg.Prog.FuncValue(obj.Origin())
		if fn == nil {
			return nil, false
		}
		out = append(out, fn)
	}
	return out, true
}

// fieldClass returns the class of the field v was loaded from, if the
// field's values are all known.
func (r *Result) fieldClass(flow *lockstate.Result, v ssa.Value) (string, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return "", false
	}
	if _, ok := load.X.(*ssa.FieldAddr); !ok {
		return "", false
	}
	class := flow.IDOf(load.X).Class
	if class == "" || r.a.fields.open[class] {
		return "", false
	}
	return class, true
}
