package summary

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// This file is the workers mode of the escape walk. A constructor often
// starts the object's own background work before it is done with it: a
// flush loop (go fs.flushLoop()), an expiry timer (time.AfterFunc(d,
// fs.expireMsgs)). Those goroutines can contend for the object's lock, but
// they do not hand the object to its users: a lock held in the constructor
// delays only them. In workers mode such a hand-off is no escape when the
// worker is the package's code and does not itself let the object escape,
// judged in workers mode again (its goroutine's own workers are fine too).
//
// Only the wait for a lock is forgiven this way: a constructor that holds
// the lock while it waits for such a worker that takes the lock first
// deadlocks, which is why heldcall keeps the strict mode for waits.

// maxWorkerDepth bounds the nesting of workers' bodies a walk enters: a
// closure started by a closure started by the function.
const maxWorkerDepth = 3

// toWorker reports whether the go statement g, which hands over v (the
// object, or a value holding it), starts a worker of the package that does
// not let the object escape: a function of the package whose parameter
// does not leak it, or a closure (or method value) of the package whose
// body does not.
func (w *escapeWalk) toWorker(g *ssa.Go, v ssa.Value) bool {
	c := g.Common()
	if c.Value == v {
		return !slices.Contains(c.Args, v) && w.workerFunc(v)
	}
	callee := StaticCallee(c)
	if callee == nil || c.IsInvoke() || w.a.funcs[w.a.declared(callee)] == nil {
		return false // not the package's code
	}
	ok, linked := w.keeps(c, g.Parent(), v)
	for _, p := range linked {
		w.into = append(w.into, link{g, p})
	}
	return ok
}

// toTimer reports whether the call c hands v, a func value holding the
// object, to time.AfterFunc or context.AfterFunc as the function a timer
// or a context's end runs, and v is a worker (see workerFunc). Only those
// std APIs are known to run their argument on a goroutine of its own and
// nothing else: other functions taking funcs are judged as calls.
func (w *escapeWalk) toTimer(c *ssa.CallCommon, v ssa.Value) bool {
	if !isAfterFunc(c) || c.Args[1] != v || c.Args[0] == v {
		return false
	}
	return w.workerFunc(v)
}

// workerFunc reports whether the func value v, which holds the object and
// is run on another goroutine, is a method value of a package method whose
// receiver does not leak in workers mode, or a closure of the package whose
// free variables bound to the object (or to a variable holding it) do not
// escape from its body in workers mode.
func (w *escapeWalk) workerFunc(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok || w.depth >= maxWorkerDepth {
		return false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	if m, iface, ok := BoundMethod(fn); ok {
		return !iface && m != nil && w.a.keepsParam(m, 0, workers)
	}
	if w.a.funcs[fn] == nil {
		return false // not the package's code
	}
	for i, b := range mc.Bindings {
		if !w.seen[b] {
			continue
		}
		if i >= len(fn.FreeVars) {
			return false
		}
		fv := fn.FreeVars[i]
		sub := w.a.newWalk(workers, w.depth+1)
		if w.cells[b] {
			sub.cells[fv] = true
		}
		sub.visit(fv)
		if len(sub.out) > 0 || len(sub.into) > 0 || sub.full {
			return false
		}
	}
	return true
}

// keepsParam reports whether fn's i'th parameter neither escapes nor is
// linked into another parameter's object, in the given mode.
func (a *analyzer) keepsParam(fn *ssa.Function, i int, mode escapeMode) bool {
	decl := a.declared(fn)
	flags, into := a.params[mode].nonLeaking[decl], a.params[mode].flowsInto[decl]
	if i >= len(flags) || !flags[i] {
		return false
	}
	return i >= len(into) || len(into[i]) == 0
}
