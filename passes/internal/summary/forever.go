package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file finds locks that are held for ever once a function returns
// with them: a shutdown gate that takes a lock and never gives it back, so
// that whoever comes later waits for good.
//
//	// WaitAndBlock waits for the group and leaves wg.mu locked, so that
//	// goroutines calling Add block.
//	func (wg *WaitGroup) WaitAndBlock() {
//		wg.mu.Lock()
//		wg.WaitGroup.Wait()
//	}
//
// The lock is an unexported field of the package, so only the package
// can release it; its address goes nowhere but into the lock's own
// methods, and every function of the package that unlocks it locks it
// first. Nothing can unlock it after WaitAndBlock returns. Holding it
// across slow work afterwards (the store's final flush, the removal of a
// marker file on the way out of main) makes no waiter wait longer: they
// wait for ever whatever the work costs. Such locks are not shared for
// heldcall (see Shared), through every caller that returns them held in
// turn.

// markForever flags the acquisitions among effects, the exit effects of
// fn, whose lock fn took only through calls that hold it for ever, and
// records those locks' keys in f.
func (a *analyzer) markForever(f *Func, effects []lockstate.Effect) []lockstate.Effect {
	keys := a.foreverTaken(f.Fn, f.Flow)
	if len(keys) == 0 {
		return effects
	}
	f.forever = keys
	out := effects
	for i, e := range effects {
		if !e.Release && !e.Forever && keys[e.Lock.Key] {
			if &out[0] == &effects[0] {
				out = append([]lockstate.Effect(nil), effects...)
			}
			out[i].Forever = true
		}
	}
	return out
}

// foreverTaken returns the keys, in fn, of the locks that calls of fn
// take for ever (an effect marked Forever), unless fn also locks them
// itself.
func (a *analyzer) foreverTaken(fn *ssa.Function, flow *lockstate.Result) map[string]bool {
	var keys map[string]bool
	var direct []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op := lockstate.OpOf(call.Common()); op.Kind == lockstate.Acquire {
				direct = append(direct, flow.IDOf(op.Recv).Key)
				continue
			}
			callee, args, bindings := callTarget(call.Common())
			if callee == nil {
				continue
			}
			for _, e := range a.effects(callee) {
				if !e.Forever || e.Release {
					continue
				}
				if id, ok := RebaseTake(flow, e.Lock, args, bindings); ok {
					if keys == nil {
						keys = map[string]bool{}
					}
					keys[id.Key] = true
				}
			}
		}
	}
	for _, k := range direct {
		delete(keys, k)
	}
	return keys
}

// sealForever flags, for an exported function about to be summarised in
// a fact, the locks it returns holding that it took itself and that
// nothing can release (sealedLock). Its callers in other packages, and
// theirs, hold them for ever.
func (a *analyzer) sealForever(fn *ssa.Function, s *Summary) {
	flow := a.flows[fn]
	if flow == nil {
		return
	}
	var effects []lockstate.Effect
	for i, e := range s.Effects {
		if e.Release || e.Forever || e.Returned {
			continue
		}
		if v := a.lockedField(fn, flow, e.Lock.Key); v == nil || !a.sealedLock(v) || a.releasedUnheld(e.Lock.Class) {
			continue
		}
		if effects == nil {
			effects = append([]lockstate.Effect(nil), s.Effects...)
		}
		effects[i].Forever = true
	}
	if effects != nil {
		s.Effects = effects
	}
}

// lockedField returns the field whose lock fn locks itself under the key,
// or nil.
func (a *analyzer) lockedField(fn *ssa.Function, flow *lockstate.Result, key string) *types.Var {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			op := lockstate.OpOf(call.Common())
			if op.Kind != lockstate.Acquire || flow.IDOf(op.Recv).Key != key {
				continue
			}
			if fa, ok := op.Recv.(*ssa.FieldAddr); ok {
				if v := FieldVar(fa); v != nil {
					return v.Origin()
				}
			}
		}
	}
	return nil
}

// sealedLock reports whether the lock held in field v can only be
// released by a function of this package that locked it first: v is an
// unexported sync.Mutex or sync.RWMutex field of the package, every use
// of its address outside _test.go files calls one of the lock's own
// methods, some function unlocks it, and each function that unlocks it
// also locks it (releasedUnheld rules out the ones that unlock a lock
// their caller took).
func (a *analyzer) sealedLock(v *types.Var) bool {
	if v.Exported() || v.Pkg() != a.pkg.Pkg || !lockstate.IsLockType(v.Type()) {
		return false
	}
	if _, ptr := v.Type().Underlying().(*types.Pointer); ptr {
		return false
	}
	locks, unlocks := map[*ssa.Function]bool{}, map[*ssa.Function]bool{}
	for _, fa := range a.indexed().fieldAddrs[v] {
		for _, ref := range *fa.Referrers() {
			if _, ok := ref.(*ssa.DebugRef); ok {
				continue
			}
			call, ok := ref.(*ssa.Call)
			if !ok {
				return false
			}
			c := call.Common()
			op := lockstate.OpOf(c)
			if len(c.Args) == 0 || c.Args[0] != ssa.Value(fa) {
				return false
			}
			switch op.Kind {
			case lockstate.Acquire, lockstate.TryAcq:
				locks[fa.Parent()] = true
			case lockstate.Release:
				unlocks[fa.Parent()] = true
			default:
				return false // RLocker, or a method of another kind
			}
		}
	}
	for fn := range unlocks {
		if !locks[fn] {
			return false
		}
	}
	// A lock that nothing unlocks is no gate the package closes on
	// purpose: a half-written type, or a lock for the callers of another
	// function to release that is yet to come.
	return len(unlocks) > 0
}

// releasedUnheld reports whether a function of the package releases a
// lock of class that it did not take itself (an unlock wrapper, a
// hand-over-hand step that unlocks the node its caller locked), or
// returns such a release for its caller to call.
func (a *analyzer) releasedUnheld(class string) bool {
	for _, f := range a.funcs {
		for _, e := range f.Summary.Effects {
			if e.Release && e.Lock.Class == class {
				return true
			}
		}
	}
	return false
}
