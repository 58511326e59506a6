package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// inherit re-analyses a closure that is only ever invoked in place (as in
// func() { ... }() or fn := func() {...}; fn()) in the context of its
// caller: the locks the caller must hold at every call are held at the
// closure's entry. Parents come before their closures in source order, so
// the parent's final lock state is known here.
func (a *analyzer) inherit(fn *ssa.Function) {
	parent := fn.Parent()
	if parent == nil {
		return
	}
	pf := a.funcs[parent]
	if pf == nil || pf.Flow == nil {
		return
	}
	calls, closure, ok := inPlaceCalls(parent, fn)
	if !ok || len(calls) == 0 {
		return
	}
	var entry []lockstate.Held
	for i, call := range calls {
		ev, ok := pf.Flow.EventAt(call)
		if !ok {
			return // some call runs with no lock held
		}
		held := ev.State.MustHeld()
		if i == 0 {
			entry = held
			continue
		}
		entry = intersect(entry, held)
	}
	if len(entry) == 0 {
		return
	}
	var free []lockstate.ID
	if closure != nil {
		for _, b := range closure.Bindings {
			free = append(free, outer(pf.Flow.IDOf(b)))
		}
	}
	for i := range entry {
		entry[i].ID = outer(entry[i].ID)
	}
	f := a.funcs[fn]
	f.Flow = lockstate.Analyze(fn, lockstate.Config{Effects: a.effects, Entry: entry, Free: free, Conds: a.condLockers, Visit: a.visitor(fn)})
	f.InPlace = true
}

// inPlaceCalls returns the calls in parent that invoke fn directly, and the
// MakeClosure that creates it, if any. ok is false when fn escapes: it is
// deferred, started as a goroutine, stored or passed elsewhere.
func inPlaceCalls(parent, fn *ssa.Function) (calls []*ssa.Call, closure *ssa.MakeClosure, ok bool) {
	isFn := func(v ssa.Value) bool {
		if v == fn {
			return true
		}
		return closure != nil && v == closure
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if closure != nil {
					return nil, nil, false
				}
				closure = mc
			}
		}
	}
	var rands []*ssa.Value // reused: Operands' argument escapes
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc == closure {
				continue
			}
			if call, ok := instr.(*ssa.Call); ok && fn.Synthetic == "range-over-func yield" && YieldArg(call.Common()) == fn {
				// The iterator calls the loop body synchronously.
				calls = append(calls, call)
				continue
			}
			if call, ok := instr.(*ssa.Call); ok && isFn(call.Call.Value) {
				for _, arg := range call.Call.Args {
					if isFn(arg) {
						return nil, nil, false
					}
				}
				calls = append(calls, call)
				continue
			}
			rands = instr.Operands(rands[:0])
			for _, op := range rands {
				if op != nil && *op != nil && isFn(*op) {
					return nil, nil, false
				}
			}
		}
	}
	return calls, closure, true
}

// intersect keeps the locks held in both lists.
func intersect(a, b []lockstate.Held) []lockstate.Held {
	var out []lockstate.Held
	for _, h := range a {
		for _, o := range b {
			if h.Key == o.Key {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// outer marks a caller's lock identity for use inside a closure: keys rooted
// in the caller's parameters and values would otherwise collide with the
// closure's own (both have a parameter 0).
func outer(id lockstate.ID) lockstate.ID {
	if id.Root != lockstate.RootGlobal {
		id.Key = "^" + id.Key
	}
	return id
}
