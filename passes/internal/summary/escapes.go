package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file follows an object through its function: the instructions
// through which it can become reachable from elsewhere.

// escapesBefore reports whether the object obj points to can become
// reachable from elsewhere before instruction at (on some path), not
// counting instruction skip.
func (a *analyzer) escapesBefore(obj ssa.Value, at, skip ssa.Instruction) bool {
	for _, esc := range a.escapes(obj) {
		if esc != skip && Precedes(esc, at) {
			return true
		}
	}
	return false
}

// escapes returns the instructions through which the object that v points
// to can become reachable from elsewhere: stores of the pointer, sends,
// closures that capture it (unless only called in place), go statements,
// and calls that hand it to code that may keep it.
func (a *analyzer) escapes(v ssa.Value) []ssa.Instruction {
	out, links := a.escapesInto(v)
	for _, l := range links {
		out = append(out, l.store)
	}
	return out
}

// A link is a store of a pointer into a field of a parameter's object.
type link struct {
	store ssa.Instruction
	param int
}

// escapesInto is escapes, except that a store of the pointer into a field
// of another parameter of its function is returned apart, as the index of
// that parameter: a function that links two objects (mb.fs = fs) lets one
// escape only as far as the other does. Stores into the object itself or
// into an object the function allocates are not escapes.
func (a *analyzer) escapesInto(v ssa.Value) (out []ssa.Instruction, into []link) {
	seen := map[ssa.Value]bool{}
	cells := map[ssa.Value]bool{}
	var visit func(v ssa.Value)
	visit = func(v ssa.Value) {
		if seen[v] || len(seen) > 256 {
			return
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef, *ssa.BinOp, *ssa.If, *ssa.Return, *ssa.Field:
				// Addresses inside the object (its lock, the fields
				// it guards), comparisons, handing it back.
			case *ssa.UnOp:
				if r.Op != token.MUL {
					out = append(out, ref)
				} else if cells[v] {
					visit(r) // a load of the variable that holds it
				}
			case *ssa.Store:
				if r.Val != v {
					continue
				}
				if cell, ok := r.Addr.(*ssa.Alloc); ok && isCell(cell) {
					// Held in a local variable (a named result, a
					// parameter spilled for a closure): its loads may
					// be the object, and it escapes wherever the
					// variable does (closures capturing it).
					cells[cell] = true
					visit(cell)
					continue
				}
				switch root := objectRoot(r.Addr).(type) {
				case *ssa.Alloc:
					if root.Parent() == r.Parent() && !isCell(root) {
						continue // into an object allocated here
					}
				case *ssa.Call:
					if a.freshResults[a.declared(StaticCallee(root.Common()))] {
						continue // into an object a constructor has just made
					}
				case *ssa.Parameter:
					if seen[root] {
						continue // into the object itself
					}
					if i := indexOf(r.Parent().Params, root); i >= 0 {
						into = append(into, link{ref, i})
						continue
					}
				}
				if seen[objectRoot(r.Addr)] {
					continue // into the object itself
				}
				out = append(out, ref)
			case *ssa.ChangeType, *ssa.Convert, *ssa.Phi:
				visit(r.(ssa.Value))
			case *ssa.MakeClosure:
				// A closure or method value that captures the object
				// (d.commitApply) holds it: it escapes where the closure
				// does.
				if !calledInPlace(r) {
					visit(r)
				}
			case *ssa.Call, *ssa.Defer:
				ok, linked := a.keeps(ref.(ssa.CallInstruction).Common(), ref.Parent(), v, seen)
				if !ok {
					out = append(out, ref)
				}
				for _, p := range linked {
					into = append(into, link{ref, p})
				}
			default:
				out = append(out, ref) // go statements, sends, maps, interfaces, ...
			}
		}
	}
	visit(v)
	return out, into
}

// objectRoot returns the object whose field (or element) addr addresses:
// the base below every field selection and load.
func objectRoot(addr ssa.Value) ssa.Value {
	for range 16 {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return addr
			}
			if cell, ok := x.X.(*ssa.Alloc); ok && isCell(cell) {
				if v := lockstate.SetOnce(cell); v != nil {
					return v // a variable set once, such as one a closure captures
				}
			}
			addr = x.X
		default:
			return addr
		}
	}
	return addr
}

// keeps reports whether a call in fn passes v only to parameters of a
// function of the package that does not let them escape, or only calls v, a
// closure holding the object. object holds the values known to be the
// object (or to hold it): linking v into one of them is no escape. Links
// into the objects of fn's own parameters are returned, by parameter index.
func (a *analyzer) keeps(c *ssa.CallCommon, fn *ssa.Function, v ssa.Value, object map[ssa.Value]bool) (ok bool, linked []int) {
	if c.Value == v {
		// A call of a closure or func value that holds the object: it
		// runs on this goroutine.
		_, isFunc := v.Type().Underlying().(*types.Signature)
		return isFunc && !slices.Contains(c.Args, v), nil
	}
	if c.IsInvoke() {
		return false, nil
	}
	callee := StaticCallee(c)
	if callee == nil {
		return false, nil
	}
	if op := lockstate.OpOf(c); op.Kind != lockstate.NoOp {
		return true, nil
	}
	decl := a.declared(callee)
	nonLeaking, into := a.nonLeaking[decl], a.flowsInto[decl]
	if nonLeaking == nil && callee.Pkg != a.pkg {
		// Another package's function: a func value it calls is a visitor
		// run in place (a tree's IterFast, a Range), not kept.
		return a.visitorArg(c, callee, v), nil
	}
	for i, arg := range c.Args {
		if arg != v {
			continue
		}
		if i >= len(nonLeaking) || !nonLeaking[i] {
			return false, nil
		}
		if i >= len(into) {
			continue
		}
		for _, j := range into[i] {
			// Linked into the object passed as argument j: fine if
			// that is v itself, part of the object, or an object the
			// caller allocated; a link into a parameter's object is
			// the caller's link.
			if j >= len(c.Args) {
				return false, nil
			}
			w := c.Args[j]
			root := objectRoot(w)
			if w == v || object[root] {
				continue
			}
			if p, ok := root.(*ssa.Parameter); ok && fn != nil {
				if k := indexOf(fn.Params, p); k >= 0 {
					linked = append(linked, k)
					continue
				}
			}
			if alloc, ok := w.(*ssa.Alloc); !ok || isCell(alloc) {
				return false, nil
			}
		}
	}
	return true, linked
}

// visitorArg reports whether every argument v of the call of callee, of
// another package, is a func value that callee calls (its summary's
// CallsParams).
func (a *analyzer) visitorArg(c *ssa.CallCommon, callee *ssa.Function, v ssa.Value) bool {
	if _, isFunc := v.Type().Underlying().(*types.Signature); !isFunc {
		return false
	}
	s := a.res.SummaryOf(callee)
	if s == nil {
		return false
	}
	for i, arg := range c.Args { // the receiver, if any, is argument 0, as in CallsParams
		if arg == v && !slices.Contains(s.CallsParams, i) {
			return false
		}
	}
	return true
}

// calledInPlace reports whether the closure mc is only ever called or
// deferred: it runs on the goroutine that made it.
func calledInPlace(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		var c *ssa.CallCommon
		switch r := ref.(type) {
		case *ssa.Call:
			c = r.Common()
		case *ssa.Defer:
			c = r.Common()
		default:
			return false
		}
		if c.Value != ssa.Value(mc) {
			return false
		}
		for _, arg := range c.Args {
			if arg == ssa.Value(mc) {
				return false
			}
		}
	}
	return true
}
