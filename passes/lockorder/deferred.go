package lockorder

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A deferred call runs when the function returns, before the calls
// deferred ahead of it (last in, first out): after mu.Lock(); defer
// mu.Unlock(); defer t.report(), report runs with mu still held, and if
// it locks mu the function deadlocks on its way out. The locks held then
// are those held at the defer that stay held on every return the defer
// reaches and that no later defer releases: a lock whose release was
// deferred before, or one the function never releases. A lock released
// explicitly before the return, or by a defer registered after this one,
// is not held when the deferred call runs.

// heldWhenDeferredRuns returns the locks held when the call deferred by d
// runs, given the state s at d.
func (c *checker) heldWhenDeferredRuns(f *summary.Func, d *ssa.Defer, s lockstate.State) []lockstate.Held {
	must := s.MustHeld()
	if len(must) == 0 {
		return nil
	}
	rets := returnsFrom(f, d.Block())
	if len(rets) == 0 {
		return nil // it runs only if the function panics
	}
	var out []lockstate.Held
	for _, h := range must {
		if keptToReturns(f, h, rets) {
			out = append(out, h)
		}
	}
	return out
}

// keptToReturns reports whether h, held at a defer, is still held at each
// of rets when the deferred call runs: held on every path there, and not
// released by a defer registered after the one h was held at.
func keptToReturns(f *summary.Func, h lockstate.Held, rets []*ssa.Return) bool {
	for _, ret := range rets {
		ev, ok := f.Flow.EventAt(ret)
		if !ok {
			return false
		}
		r, ok := ev.State.Lookup(h.Key)
		if !ok || !r.Must || r.Deferred && !h.Deferred {
			return false
		}
	}
	return true
}

// returnsFrom returns the returns of f reachable from block b.
func returnsFrom(f *summary.Func, b *ssa.BasicBlock) []*ssa.Return {
	var out []*ssa.Return
	seen := make([]bool, len(f.Fn.Blocks))
	work := []*ssa.BasicBlock{b}
	seen[b.Index] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if ret, ok := lastInstr(b).(*ssa.Return); ok {
			out = append(out, ret)
		}
		for i, succ := range b.Succs {
			if seen[succ.Index] || lockstate.DeadEdge(b, i) || !f.Flow.Reachable(succ) {
				continue
			}
			seen[succ.Index] = true
			work = append(work, succ)
		}
	}
	return out
}

// through says how a lock is taken by a call of via in the function
// checked: " through call of (*T).report", " through deferred call of
// ...", or, for a Lock that is itself deferred, " by a deferred call".
func (c *checker) through(via string) string {
	return throughCall(via, c.deferred)
}

func throughCall(via string, deferred bool) string {
	switch {
	case via == "" && deferred:
		return " by a deferred call"
	case via == "":
		return ""
	case deferred:
		return " through deferred call of " + via
	}
	return " through call of " + via
}
