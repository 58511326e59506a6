package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file decides a field of a struct that another struct holds by
// value in one of its fields, when nothing writes it there:
//
//	type ring struct {
//		mu     sync.Mutex
//		maxLen int // if > 0, push waits for room
//		cond   *sync.Cond
//	}
//
//	func (r *ring) setMaxLen(n int) { r.maxLen = n; r.cond = sync.NewCond(&r.mu) }
//
//	type producer struct{ promises ring } // setMaxLen(8192) in its constructor
//	type consumer struct{ callbacks ring } // unbounded: setMaxLen never runs on it
//
// A push onto c.callbacks never waits: the ring's maxLen is zero there,
// whatever other rings of the type hold.

// An embedKey names an inner field of the struct held at an outer field.
type embedKey struct{ outer, inner *types.Var }

// zeroVia reports whether the unexported field inner of the struct held
// by value in the field outer is never written in the package, so that
// it holds its zero value in every object: no store to it through an
// address of an outer field, or through a parameter of the package's
// functions that such an address reaches, and no such address stored
// anywhere, handed to another package's code or assigned a whole value.
func (w *writerIndex) zeroVia(outer, inner *types.Var) bool {
	if inner.Exported() {
		return false
	}
	k := embedKey{outer.Origin(), inner.Origin()}
	if v, ok := w.zeros[k]; ok {
		return v
	}
	if w.zeros == nil {
		w.zeros = map[embedKey]bool{}
	}
	seen := map[ssa.Value]bool{}
	var queue []ssa.Value
	for _, fa := range w.index().fieldAddrs[k.outer] {
		queue = append(queue, fa)
	}
	zero := true
	for len(queue) > 0 && zero {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		next, ok := w.addrUses(v, k.inner)
		zero = ok
		queue = append(queue, next...)
	}
	w.zeros[k] = zero
	return zero
}

// addrUses follows the uses of v, an address of the struct: it reports
// false when one may write the field inner, and returns the values the
// address flows on to (the parameters of the package's functions it is
// passed to, φ-nodes, conversions).
func (w *writerIndex) addrUses(v ssa.Value, inner *types.Var) ([]ssa.Value, bool) {
	refs := v.Referrers()
	if refs == nil {
		return nil, true
	}
	var next []ssa.Value
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.FieldAddr:
			if f := FieldVar(ref); f != nil && f.Origin() == inner && written(ref) {
				return nil, false
			}
		case *ssa.UnOp, *ssa.DebugRef:
			// A load copies the struct; it writes nothing.
		case *ssa.Store:
			if ref.Addr != v {
				return nil, false // the address is kept somewhere
			}
			if k, ok := ref.Val.(*ssa.Const); !ok || !k.IsNil() && k.Value != nil {
				return nil, false // a whole value assigned
			}
		case *ssa.Phi, *ssa.ChangeType:
			next = append(next, ref.(ssa.Value))
		case ssa.CallInstruction:
			c := ref.Common()
			callee := c.StaticCallee()
			if callee == nil || c.Value == v {
				return nil, false
			}
			if callee = declaredFn(callee); callee.Pkg != w.pkg || len(callee.Blocks) == 0 {
				return nil, false
			}
			for i, arg := range c.Args {
				if arg == v && i < len(callee.Params) {
					next = append(next, callee.Params[i])
				}
			}
		default:
			return nil, false
		}
	}
	return next, true
}

// written reports whether the field address fa is stored to, or escapes
// where it may be.
func written(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		switch ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return true
		}
	}
	return false
}
