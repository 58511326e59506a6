package lockorder

import (
	"fmt"
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
			if !ok {
				continue // a release the defer's callee makes: not named here
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
// held.
func deferredReleases(f *summary.Func) map[string]deferredRelease {
	out := map[string]deferredRelease{}
	modes := map[string]lockstate.Mode{}
	mixed := map[string]bool{}
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			op := lockstate.OpOf(call.Common())
			if op.Kind == lockstate.NoOp || op.Kind == lockstate.CondWait {
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
			if _, isDefer := instr.(*ssa.Defer); isDefer && op.Kind == lockstate.Release {
				if _, seen := out[id.Key]; !seen {
					out[id.Key] = deferredRelease{id, instr.Pos()}
				}
			}
		}
	}
	for key := range mixed {
		delete(out, key)
	}
	return out
}
