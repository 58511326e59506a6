package summary

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// This file finds the locks that are only ever taken under another lock of
// the same object, and the locks a function's callers always hold when
// they call it:
//
//	type node struct {
//		sync.RWMutex            // the node's state
//		snapMu       sync.Mutex // taken only under the node's lock
//	}
//
//	func (n *node) apply(e entry) {
//		n.Lock()
//		defer n.Unlock()
//		n.installSnapshot(e) // reported: n's lock is held across the write
//	}
//
//	func (n *node) installSnapshot(e entry) {
//		n.snapMu.Lock() // every caller holds n's lock
//		defer n.snapMu.Unlock()
//		os.WriteFile(n.snapPath, e.data, 0o600)
//	}
//
// A goroutine that wants snapMu must first hold the node's lock, which the
// holder of snapMu holds too: nobody can be waiting for snapMu itself. The
// wait is for the outer lock, and the caller's finding names it.

// callersHold returns the locks that every caller of fn holds for writing
// when it calls fn, named as fn names them (rooted at its parameters, or
// package-level locks): fn's entry lockset. It is empty unless the
// package's direct calls are all of fn's calls (see directCalls). A
// closure's callers' locks are its inherited locks instead (inherit.go).
// It is computed over the package's call graph: the locks held at every
// call of fn in the package's code outside _test.go files, intersected,
// each translated onto fn's parameters; a caller's own entry locks count
// as held at its calls. A recursive chain counts as holding nothing, a
// lower bound.
func (a *analyzer) callersHold(fn *ssa.Function) []lockstate.Held {
	if held, ok := a.entryLocks[fn]; ok {
		return held
	}
	if a.entryLocks == nil {
		a.entryLocks = map[*ssa.Function][]lockstate.Held{}
	}
	a.entryLocks[fn] = nil // in progress: a cycle holds nothing
	var entry []lockstate.Held
	if fn.Parent() == nil && a.funcs[fn] != nil && a.funcs[fn].Flow != nil {
		first := true
		for _, cs := range a.directCalls(fn) {
			if srcname.InTest(a.pass.Fset, cs.fn.Pos()) {
				continue // a test drives the function its own way
			}
			held := a.heldAtCall(cs, fn)
			if first {
				entry, first = held, false
			} else {
				entry = intersect(entry, held)
			}
			if len(entry) == 0 {
				break
			}
		}
	}
	a.entryLocks[fn] = entry
	return entry
}

// heldAtCall returns the locks the caller holds for writing at the call
// cs of callee, translated onto callee's parameters. A go or defer
// statement holds nothing where the callee runs.
func (a *analyzer) heldAtCall(cs callSite, callee *ssa.Function) []lockstate.Held {
	call, ok := cs.instr.(*ssa.Call)
	if !ok {
		return nil
	}
	caller := a.funcs[cs.fn]
	if caller == nil || caller.Flow == nil {
		return nil
	}
	var out []lockstate.Held
	for _, h := range a.heldWithCallers(caller, call) {
		if h.Mode != lockstate.Write || h.Class == "" {
			continue
		}
		if id, ok := a.calleeID(caller.Flow, call.Common(), callee, h.ID); ok {
			h.ID = id
			h.Inherited = false
			out = append(out, h)
		}
	}
	return out
}

// heldWithCallers returns the locks held on every path to at in f: its
// own, and those every caller holds (CallersHoldAt).
func (a *analyzer) heldWithCallers(f *Func, at ssa.Instruction) []lockstate.Held {
	ev, _ := f.Flow.EventAt(at) // no event: f itself holds nothing there
	return append(ev.State.MustHeld(), a.callersHoldAt(f, at)...)
}

// CallersHoldAt returns the locks every caller of f holds at its calls
// (callersHold), without those f has released (an unlock of its caller's
// lock) before at.
func (r *Result) CallersHoldAt(f *Func, at ssa.Instruction) []lockstate.Held {
	return r.a.callersHoldAt(f, at)
}

func (a *analyzer) callersHoldAt(f *Func, at ssa.Instruction) []lockstate.Held {
	entry := a.callersHold(f.Fn)
	if len(entry) == 0 {
		return nil
	}
	ev, _ := f.Flow.EventAt(at)
	var out []lockstate.Held
	for _, h := range entry {
		if !slices.ContainsFunc(ev.State.Released, func(id lockstate.ID) bool { return id.Key == h.Key }) {
			out = append(out, h)
		}
	}
	return out
}

// calleeID names the caller's lock id as the callee sees it: a
// package-level lock as it is, a lock below an argument below the
// callee's parameter (or below a back-pointer to it: c.n, see
// backpointers.go). ok is false when the callee cannot name it.
func (a *analyzer) calleeID(flow *lockstate.Result, call *ssa.CallCommon, callee *ssa.Function, id lockstate.ID) (lockstate.ID, bool) {
	if id.Root == lockstate.RootGlobal {
		return id, true
	}
	cf := a.funcs[callee]
	if cf == nil || cf.Flow == nil {
		return lockstate.ID{}, false
	}
	for i, arg := range call.Args {
		if i >= len(callee.Params) {
			break
		}
		rest, ok := below(id, flow.IDOf(arg))
		if !ok {
			if alias := a.backPointer(arg); alias != nil {
				rest, ok = below(id, flow.IDOf(alias))
			}
		}
		if ok {
			return lockstate.ID{Class: id.Class, Path: rest, NamePath: rest}.Rebase(cf.Flow.IDOf(callee.Params[i])), true
		}
	}
	return lockstate.ID{}, false
}

// below returns the selector path of the lock id below the object root,
// when id is a field (or a field's field) of it.
func below(id, root lockstate.ID) (string, bool) {
	if root.Key == "" || !strings.HasPrefix(id.Key, root.Key) {
		return "", false
	}
	rest := id.Key[len(root.Key):]
	return rest, strings.HasPrefix(rest, ".")
}

// TakenUnderCallers returns the lock, named as f names it, that its
// callers hold at every call of f (CallersHoldAt) and under which every
// lock of held is always taken (see nestedUnder), when there is one: no
// goroutine can be waiting for the held locks while f runs. Locks f
// itself releases before at do not count.
func (r *Result) TakenUnderCallers(f *Func, held []lockstate.Held, at ssa.Instruction) (lockstate.Held, bool) {
	a := r.a
	if f == nil || f.Flow == nil || len(held) == 0 {
		return lockstate.Held{}, false
	}
	entry := a.callersHoldAt(f, at)
	var outer lockstate.Held
	for _, h := range held {
		if h.Inherited {
			return lockstate.Held{}, false
		}
		found := false
		for _, m := range entry {
			if lockstate.SameOwner(h.ID, m.ID) && a.nestedUnder(h.Class, m.Class) {
				outer, found = m, true
				break
			}
		}
		if !found {
			return lockstate.Held{}, false
		}
	}
	return outer, true
}

type nestKey struct{ inner, outer string }

// nestedUnder reports whether every lock of class inner is taken under a
// lock of class outer held for writing, of the same object or
// package-level: the inner lock is an unexported field whose address
// goes only to its own lock operations (privateLock), and at each of its
// acquisitions in the package's code outside _test.go files, the outer
// lock is held there or by every caller.
func (a *analyzer) nestedUnder(inner, outer string) bool {
	if inner == "" || outer == "" || inner == outer {
		return false
	}
	k := nestKey{inner, outer}
	if v, ok := a.nested[k]; ok {
		return v
	}
	if a.nested == nil {
		a.nested = map[nestKey]bool{}
	}
	a.nested[k] = false // in progress
	ok := a.privateLock(inner) && a.eachAcquire(inner, func(fn *ssa.Function, call *ssa.Call, lock lockstate.ID) bool {
		f := a.funcs[fn]
		if f == nil || f.Flow == nil {
			return false
		}
		for _, m := range a.heldWithCallers(f, call) {
			if m.Mode == lockstate.Write && m.Class == outer && lockstate.SameOwner(lock, m.ID) {
				return true
			}
		}
		return false
	})
	a.nested[k] = ok
	return ok
}

// eachAcquire calls take for each acquisition (Lock, RLock, TryLock) of a
// lock of class, a private lock field, in the package's code outside
// _test.go files, with the lock's identity in the acquiring function. It
// reports whether take accepted every one, and there was one.
func (a *analyzer) eachAcquire(class string, take func(fn *ssa.Function, call *ssa.Call, lock lockstate.ID) bool) bool {
	n := 0
	for f, addrs := range a.indexed().fieldAddrs {
		if !strings.HasSuffix(class, "."+f.Name()) {
			continue
		}
		for _, fa := range addrs {
			if lockstate.FieldClass(fa) != class || srcname.InTest(a.pass.Fset, fa.Parent().Pos()) {
				continue
			}
			for _, ref := range *fa.Referrers() {
				call, ok := ref.(*ssa.Call)
				if !ok {
					continue
				}
				if op := lockstate.OpOf(call.Common()); op.Kind != lockstate.Acquire && op.Kind != lockstate.TryAcq {
					continue
				}
				fn := fa.Parent()
				flow := a.funcs[fn]
				if flow == nil || flow.Flow == nil || !take(fn, call, flow.Flow.IDOf(fa)) {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}
