package lockorder

import (
	"fmt"
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A function that registers a deferred Unlock and then unlocks the lock
// itself on a path that returns without taking it again unlocks it twice:
// the deferred Unlock runs on an unlocked mutex, which is a fatal error
// ("sync: unlock of unlocked mutex"), not a panic a recover can catch.
// Error paths are where it hides:
//
//	mu.Lock()
//	defer mu.Unlock()
//	if err := load(); err != nil {
//		mu.Unlock()
//		return err
//	}

// doubleUnlocks reports the returns of f where a lock whose release a
// defer has registered (on some path) is held on no path.
func (c *checker) doubleUnlocks(f *summary.Func) {
	var deferred map[string]deferredRelease // by lock key, found on first need
	for _, b := range f.Fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || !f.Flow.Reachable(b) {
			continue
		}
		ev, ok := f.Flow.EventAt(ret)
		if !ok {
			continue
		}
		for _, key := range ev.State.Pending {
			if _, held := ev.State.Lookup(key); held {
				continue
			}
			if deferred == nil {
				deferred = deferredReleases(f)
			}
			d, ok := deferred[key]
			if !ok || c.deferredRelock(f, d.id) {
				continue // a release the defer's callee makes, or a relock
			}
			pos := ret.Pos()
			if !pos.IsValid() {
				pos = closingBrace(f.Fn)
			}
			name := c.lockName(d.id, d.pos)
			c.rep.ReportLevel(analysis.Diagnostic{
				Pos:      pos,
				Category: "double-unlock",
				Message: fmt.Sprintf("return with %s already unlocked, but the deferred unlock (%s) unlocks it again: a fatal error, not a panic",
					name, srcname.At(c.pass.Fset, d.pos)),
				Related: []analysis.RelatedInformation{{Pos: d.pos, Message: "deferred unlock of " + name}},
			}, confidence.Warning, "")
		}
	}
}

// guardedUnlocks reports the returns of f where a deferred closure's
// unlock, guarded by a flag the function captured (defer func() { if
// !unlocked { mu.Unlock() } }()), runs on a lock f has already unlocked
// by hand: the flag still has the value that makes the closure unlock.
func (c *checker) guardedUnlocks(f *summary.Func) {
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			mc, ok := d.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			if g := c.res.Func(mc.Fn.(*ssa.Function)); g != nil && g.Flow != nil {
				c.guardedUnlock(f, d, mc, g)
			}
		}
	}
}

// guardedUnlock checks one deferred closure g of f.
func (c *checker) guardedUnlock(f *summary.Func, d *ssa.Defer, mc *ssa.MakeClosure, g *summary.Func) {
	for call, op := range lockOps(g.Fn) {
		if _, ok := call.(*ssa.Call); !ok || op.Kind != lockstate.Release || op.Mode != lockstate.Write {
			continue
		}
		lid := g.Flow.IDOf(op.Recv)
		if lid.Root != lockstate.RootFree || lid.RootIndex >= len(mc.Bindings) {
			continue
		}
		if ev, ok := g.Flow.EventAt(call); ok {
			if h, held := ev.State.Lookup(lid.Key); held && !h.Inherited {
				continue // the closure's own Lock and Unlock
			}
		}
		id := lid.Rebase(f.Flow.IDOf(mc.Bindings[lid.RootIndex]))
		for _, cond := range c.res.When(g, call.Block()) {
			// Unlocks only while a captured flag has the value
			// cond.Value: the flag's cell, in f.
			if cond.Param >= 0 || cond.Path != "" || cond.Nil || cond.Cmp != token.ILLEGAL || -1-cond.Param >= len(mc.Bindings) {
				continue
			}
			cell, ok := mc.Bindings[-1-cond.Param].(*ssa.Alloc)
			if !ok {
				continue
			}
			c.flagReturns(f, d, cell, cond.Value, id)
		}
	}
}

// flagReturns reports the returns of f after the defer d where the lock id
// is held on no path, and every store into the flag cell that can precede
// the return stores unlockWhen: the deferred closure unlocks it again.
func (c *checker) flagReturns(f *summary.Func, d *ssa.Defer, cell *ssa.Alloc, unlockWhen bool, id lockstate.ID) {
	for _, b := range f.Fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || !f.Flow.Reachable(b) || !summary.Precedes(d, ret) {
			continue
		}
		if ev, ok := f.Flow.EventAt(ret); ok {
			if _, held := ev.State.Lookup(id.Key); held {
				continue
			}
		}
		if !flagIs(cell, ret, unlockWhen) || !unlockedBefore(f, id.Key, d, ret) || c.deferredRelock(f, id) {
			continue
		}
		name := c.lockName(id, d.Pos())
		c.rep.ReportLevel(analysis.Diagnostic{
			Pos:      ret.Pos(),
			Category: "double-unlock",
			Message: fmt.Sprintf("return with %s already unlocked, but the deferred unlock (%s) unlocks it again: a fatal error, not a panic",
				name, srcname.At(c.pass.Fset, d.Pos())),
			Related: []analysis.RelatedInformation{{Pos: d.Pos(), Message: "deferred unlock of " + name}},
		}, confidence.Warning, "")
	}
}

// flagIs reports whether every store into cell that can run before at
// stores the constant want, and one does.
func flagIs(cell *ssa.Alloc, at ssa.Instruction, want bool) bool {
	stored := false
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != ssa.Value(cell) || !summary.Precedes(r, at) {
				continue
			}
			k, ok := r.Val.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Bool || constant.BoolVal(k.Value) != want {
				return false
			}
			stored = true
		case *ssa.UnOp, *ssa.MakeClosure, *ssa.DebugRef:
		default:
			return false // its address handed on
		}
	}
	return stored
}

// unlockedBefore reports whether f explicitly unlocks the lock key between
// the defer and the return, on some path.
func unlockedBefore(f *summary.Func, key string, d *ssa.Defer, ret *ssa.Return) bool {
	for call, op := range lockOps(f.Fn) {
		if _, ok := call.(*ssa.Call); ok && op.Kind == lockstate.Release && f.Flow.IDOf(op.Recv).Key == key && summary.Precedes(d, call) && summary.Precedes(call, ret) {
			return true
		}
	}
	return false
}

// deferredRelock reports whether f, or a closure in it, defers a Lock of
// the lock id: mu.Unlock(); defer mu.Lock() takes it back (in f, before
// the earlier deferred Unlock runs; in a closure called in place, when the
// closure returns, which the lock state does not follow).
func (c *checker) deferredRelock(f *summary.Func, id lockstate.ID) bool {
	var relocks func(fn *ssa.Function, depth int) bool
	relocks = func(fn *ssa.Function, depth int) bool {
		g := c.res.Func(fn)
		if g == nil || g.Flow == nil || depth > 4 {
			return false
		}
		for call, op := range lockOps(fn) {
			if _, ok := call.(*ssa.Defer); ok && op.Kind == lockstate.Acquire {
				if l := g.Flow.IDOf(op.Recv); l.Key == id.Key || l.Class != "" && l.Class == id.Class {
					return true
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			if relocks(anon, depth+1) {
				return true
			}
		}
		return false
	}
	return relocks(f.Fn, 0)
}

// A deferredRelease is a defer statement that releases a lock.
type deferredRelease struct {
	id  lockstate.ID
	pos token.Pos
}

// deferredReleases returns the defer statements of f that release a lock
// directly (defer mu.Unlock()), by the lock's key, for the locks f takes
// in one mode only: the engine holds a read and a write lock of one
// RWMutex as one entry, and an Unlock of a write lock taken under a
// deferred RUnlock (an upgrade, itself a deadlock) leaves the read lock
// held. Locks taken back in a defer are left to deferredRelock.
func deferredReleases(f *summary.Func) map[string]deferredRelease {
	out := map[string]deferredRelease{}
	modes := map[string]lockstate.Mode{}
	mixed := map[string]bool{}
	for call, op := range lockOps(f.Fn) {
		if op.Kind == lockstate.CondWait {
			continue
		}
		id := f.Flow.IDOf(op.Recv)
		if id.Key == "" {
			continue
		}
		if m, seen := modes[id.Key]; seen && m != op.Mode {
			mixed[id.Key] = true
		}
		modes[id.Key] = op.Mode
		if _, isDefer := call.(*ssa.Defer); isDefer && op.Kind == lockstate.Release {
			if _, seen := out[id.Key]; !seen {
				out[id.Key] = deferredRelease{id, call.Pos()}
			}
		}
	}
	for key := range mixed {
		delete(out, key)
	}
	return out
}
