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

// An escapeMode says which hand-offs of an object count as escapes.
type escapeMode int

const (
	// strict counts every way the object can reach another goroutine.
	strict escapeMode = iota
	// workers does not count handing the object to the package's own
	// background workers (see workers.go), as long as they do not
	// themselves let it escape: they do not publish it to its users.
	workers
	nModes // the number of modes
)

// escapesBefore reports whether the object obj points to can become
// reachable from elsewhere before instruction at (on some path), not
// counting instruction skip.
func (a *analyzer) escapesBefore(obj ssa.Value, at, skip ssa.Instruction, mode escapeMode) bool {
	for _, esc := range a.escapes(obj, mode) {
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
func (a *analyzer) escapes(v ssa.Value, mode escapeMode) []ssa.Instruction {
	out, links := a.escapesInto(v, mode)
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

// maxEscapeValues bounds the values one walk follows.
const maxEscapeValues = 256

// An escapeWalk follows the values that are, or hold, one object through
// their function.
type escapeWalk struct {
	a    *analyzer
	mode escapeMode
	// depth counts the workers' bodies entered to get here: a walk of
	// depth > 0 is in a function run on another goroutine (workers mode).
	depth int
	seen  map[ssa.Value]bool // the values that are or hold the object
	cells map[ssa.Value]bool // the variables that hold it
	out   []ssa.Instruction
	into  []link
	full  bool // it stopped at maxEscapeValues
}

func (a *analyzer) newWalk(mode escapeMode, depth int) *escapeWalk {
	return &escapeWalk{a: a, mode: mode, depth: depth, seen: map[ssa.Value]bool{}, cells: map[ssa.Value]bool{}}
}

// escapesInto is escapes, except that a store of the pointer into a field
// of another parameter of its function is returned apart, as the index of
// that parameter: a function that links two objects (mb.fs = fs) lets one
// escape only as far as the other does. Stores into the object itself or
// into an object the function allocates are not escapes.
func (a *analyzer) escapesInto(v ssa.Value, mode escapeMode) (out []ssa.Instruction, into []link) {
	w := a.newWalk(mode, 0)
	w.visit(v)
	return w.out, w.into
}

func (w *escapeWalk) visit(v ssa.Value) {
	if w.seen[v] {
		return
	}
	if len(w.seen) > maxEscapeValues {
		w.full = true
		return
	}
	w.seen[v] = true
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
				w.out = append(w.out, ref)
			} else if w.cells[v] {
				w.visit(r) // a load of the variable that holds it
			}
		case *ssa.Store:
			if r.Val == v {
				w.store(r)
			}
		case *ssa.ChangeType, *ssa.Convert, *ssa.Phi:
			w.visit(r.(ssa.Value))
		case *ssa.MakeClosure:
			// A closure or method value that captures the object
			// (d.commitApply) holds it: it escapes where the closure
			// does. On a worker, even a closure called in place runs
			// there, and its body is checked where it is called.
			if w.depth > 0 || !calledInPlace(r) {
				w.visit(r)
			}
		case *ssa.Go:
			if w.mode != workers || !w.toWorker(r, v) {
				w.out = append(w.out, ref)
			}
		case *ssa.Call, *ssa.Defer:
			c := ref.(ssa.CallInstruction).Common()
			if w.mode == workers && w.toTimer(c, v) {
				continue
			}
			ok, linked := w.keeps(c, ref.Parent(), v)
			if !ok {
				w.out = append(w.out, ref)
			}
			for _, p := range linked {
				w.into = append(w.into, link{ref, p})
			}
		default:
			w.out = append(w.out, ref) // sends, maps, interfaces, ...
		}
	}
}

// store follows a store of the object, or of a value holding it, into
// addr.
func (w *escapeWalk) store(r *ssa.Store) {
	if cell, ok := r.Addr.(*ssa.Alloc); ok && isCell(cell) {
		// Held in a local variable (a named result, a parameter
		// spilled for a closure): its loads may be the object, and it
		// escapes wherever the variable does (closures capturing it).
		w.cells[cell] = true
		w.visit(cell)
		return
	}
	switch root := objectRoot(r.Addr).(type) {
	case *ssa.Alloc:
		if root.Parent() == r.Parent() && !isCell(root) {
			return // into an object allocated here
		}
	case *ssa.Call:
		if w.a.freshResults[w.a.declared(StaticCallee(root.Common()))] {
			return // into an object a constructor has just made
		}
	case *ssa.Parameter:
		if w.seen[root] {
			return // into the object itself
		}
		if i := indexOf(r.Parent().Params, root); i >= 0 {
			w.into = append(w.into, link{r, i})
			return
		}
	}
	if w.seen[objectRoot(r.Addr)] {
		return // into the object itself
	}
	w.out = append(w.out, r)
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
// function of the package that do not let them escape (in the walk's
// mode), or only calls v, a closure holding the object. Linking v into the
// object itself (a value of w.seen) is no escape. Links into the objects of
// fn's own parameters are returned, by parameter index.
func (w *escapeWalk) keeps(c *ssa.CallCommon, fn *ssa.Function, v ssa.Value) (ok bool, linked []int) {
	a, object := w.a, w.seen
	if c.Value == v {
		// A call of a closure or func value that holds the object: it
		// runs on this goroutine, and on a worker its body must keep
		// the object too.
		_, isFunc := v.Type().Underlying().(*types.Signature)
		if !isFunc || slices.Contains(c.Args, v) {
			return false, nil
		}
		return w.depth == 0 || w.workerFunc(v), nil
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
	nonLeaking, into := a.params[w.mode].nonLeaking[decl], a.params[w.mode].flowsInto[decl]
	if nonLeaking == nil && callee.Pkg != a.pkg {
		// Another package's function: a func value it calls is a visitor
		// run in place (a tree's IterFast, a Range), not kept.
		return a.visitorArg(c, callee, v), nil
	}
	// The arguments in the order of decl's parameters: a bound method
	// value's call passes its receiver in the closure.
	args := c.Args
	if m, iface, ok := BoundMethod(callee); ok && !iface && m != nil {
		args = append([]ssa.Value{nil}, c.Args...)
		if mc, ok := c.Value.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
			args[0] = mc.Bindings[0]
		}
	}
	for i, arg := range args {
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
			if j >= len(args) || args[j] == nil {
				return false, nil
			}
			other := args[j]
			root := objectRoot(other)
			if other == v || object[root] {
				continue
			}
			if p, ok := root.(*ssa.Parameter); ok && fn != nil {
				if k := indexOf(fn.Params, p); k >= 0 {
					linked = append(linked, k)
					continue
				}
			}
			if alloc, ok := other.(*ssa.Alloc); !ok || isCell(alloc) {
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
