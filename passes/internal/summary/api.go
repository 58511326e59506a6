package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// apiKey caches inAPI.
type apiKey struct {
	n  *types.Named
	in bool
}

// inAPI reports whether the package's exported API mentions the unexported
// type n where values cross the package boundary: the parameters (in) or
// the results (out) of exported functions and methods, exported variables,
// and exported fields of exported types.
func (a *analyzer) inAPI(n *types.Named, in bool) bool {
	key := apiKey{n, in}
	if v, ok := a.api[key]; ok {
		return v
	}
	mentions := func(x types.Type) bool {
		for range 4 {
			if types.Identical(x, n) {
				return true
			}
			switch y := x.Underlying().(type) {
			case *types.Pointer:
				x = y.Elem()
			case *types.Slice:
				x = y.Elem()
			case *types.Array:
				x = y.Elem()
			case *types.Map:
				if types.Identical(y.Key(), n) {
					return true
				}
				x = y.Elem()
			case *types.Chan:
				x = y.Elem()
			default:
				return false
			}
		}
		return false
	}
	crosses := func(sig *types.Signature) bool {
		tuple := sig.Results()
		if in {
			tuple = sig.Params()
		}
		for i := 0; i < tuple.Len(); i++ {
			if mentions(tuple.At(i).Type()) {
				return true
			}
		}
		return false
	}
	found := false
	scope := a.pkg.Pkg.Scope()
	if a.apiNames == nil {
		a.apiNames = scope.Names() // sorted, and a new slice each call
	}
	for _, name := range a.apiNames {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			found = obj.Exported() && crosses(obj.Signature())
		case *types.Var:
			found = obj.Exported() && mentions(obj.Type())
		case *types.TypeName:
			if !obj.Exported() {
				break
			}
			if st, ok := obj.Type().Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields() && !found; i++ {
					found = st.Field(i).Exported() && mentions(st.Field(i).Type())
				}
			}
			if named, ok := obj.Type().(*types.Named); ok {
				for i := 0; i < named.NumMethods() && !found; i++ {
					m := named.Method(i)
					found = m.Exported() && crosses(m.Signature())
				}
			}
		}
		if found {
			break
		}
	}
	a.api[key] = found
	return found
}

// callableOutside reports whether other packages can call fn: an exported
// function, or a method with an exported name whose receiver type is
// exported, or unexported but handed out (returned by the exported API,
// stored in an exported field or variable, embedded in an exported type),
// or converted to an interface that declares the method, or to any
// interface for the methods other packages look for on any value
// (String, Error, Write...). An unexported cache's SetOnReplace, called
// only by the package, is not callable outside because the cache is
// handed to other packages as a store.
func (a *analyzer) callableOutside(fn *ssa.Function) bool {
	obj := FuncObject(fn)
	if obj == nil || !obj.Exported() {
		return false
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Exported() || n.Obj().Pkg() != a.pkg.Pkg {
		return true
	}
	n = n.Origin()
	if a.inAPI(n, false) || a.embeddedOutward(n.Obj(), map[*types.TypeName]bool{}) {
		return true
	}
	methods, boxed := a.indexed().boxed[n]
	return boxed && (methods[obj.Name()] || wellKnownMethods[obj.Name()])
}

// wellKnownMethods are the methods that other packages look for on values
// of any type they are handed (fmt's, errors', encoding's, io's and
// sort's interfaces): an unexported type's other methods are reachable
// only through interfaces that declare them.
var wellKnownMethods = map[string]bool{
	"String": true, "GoString": true, "Format": true, "Error": true, "Unwrap": true, "Is": true, "As": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true,
	"MarshalBinary": true, "UnmarshalBinary": true, "Read": true, "Write": true, "Close": true,
	"Len": true, "Less": true, "Swap": true, "ServeHTTP": true, "Lock": true, "Unlock": true,
}
