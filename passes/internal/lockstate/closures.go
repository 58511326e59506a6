package lockstate

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// CalledFunc returns the function that v, the func value a call of fn
// invokes, always is, and for a closure the values it captured, as values
// of fn (nil for a capture fn cannot name). Besides a function and a
// closure made in fn, v can be a variable set once to a closure (a
// rollback := func() { ...; mu.Unlock() } that another closure captures,
// so SSA keeps it in a cell), read in fn or in a closure of fn that
// captures the variable.
func CalledFunc(fn *ssa.Function, v ssa.Value) (*ssa.Function, []ssa.Value) {
	switch v := v.(type) {
	case *ssa.Function:
		return v, nil
	case *ssa.MakeClosure:
		g, _ := v.Fn.(*ssa.Function)
		return g, v.Bindings
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil, nil
		}
		switch x := v.X.(type) {
		case *ssa.Alloc:
			if mc, ok := SetOnce(x).(*ssa.MakeClosure); ok {
				g, _ := mc.Fn.(*ssa.Function)
				return g, mc.Bindings
			}
		case *ssa.FreeVar:
			return capturedClosure(fn, x)
		}
	}
	return nil, nil
}

// capturedClosure resolves a closure that fn reads from a variable it
// captures (fv), set once in fn's parent: its captured values are
// translated to fn's own free variables bound to the same values.
func capturedClosure(fn *ssa.Function, fv *ssa.FreeVar) (*ssa.Function, []ssa.Value) {
	outer := MadeOnce(fn)
	i := slices.Index(fn.FreeVars, fv)
	if outer == nil || i < 0 || i >= len(outer.Bindings) {
		return nil, nil
	}
	cell, ok := outer.Bindings[i].(*ssa.Alloc)
	if !ok {
		return nil, nil
	}
	mc, ok := SetOnce(cell).(*ssa.MakeClosure)
	if !ok {
		return nil, nil
	}
	g, _ := mc.Fn.(*ssa.Function)
	bindings := make([]ssa.Value, len(mc.Bindings))
	for j, b := range mc.Bindings {
		if k := slices.Index(outer.Bindings, b); k >= 0 && k < len(fn.FreeVars) {
			bindings[j] = fn.FreeVars[k]
		}
	}
	return g, bindings
}

// MadeOnce returns the one MakeClosure instruction that makes the closure
// fn, or nil when fn is not a closure or is made in more places than one.
func MadeOnce(fn *ssa.Function) *ssa.MakeClosure {
	if fn.Parent() == nil || fn.Referrers() == nil {
		return nil
	}
	var mc *ssa.MakeClosure
	for _, ref := range *fn.Referrers() {
		m, ok := ref.(*ssa.MakeClosure)
		if !ok || m.Fn != ssa.Value(fn) {
			continue
		}
		if mc != nil {
			return nil
		}
		mc = m
	}
	return mc
}
