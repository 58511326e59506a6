package lockorder

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A lock taken in a loop and released by a defer stays held until the
// function returns, not until the iteration ends:
//
//	for _, k := range keys {
//		s.mu.Lock()
//		defer s.mu.Unlock() // runs at return
//		s.n[k]++
//	}
//
// The second iteration locks s.mu again while it is held: a double lock.
// A lock of the iteration's element (each x.mu of a range over xs) is
// another lock each turn, held until the return on purpose or not, and a
// TryLock fails rather than waits: neither is reported.

// deferredInLoops reports the locks an iteration of one of f's loops takes
// and leaves to a deferred release on every path round the loop; back and
// entry are f's loop edges (loopEdges).
func (c *checker) deferredInLoops(f *summary.Func, back, entry map[*ssa.BasicBlock][]backEdge) {
	reported := map[token.Pos]bool{}
	for _, head := range f.Fn.Blocks {
		for _, e := range back[head] {
			for _, h := range e.state.Held {
				if !h.Must || !h.Deferred || h.Inherited || h.Restored || h.Key == "" || c.goReleased[h.Key] || heldOn(entry[head], h.Key) || reported[h.Pos] {
					continue
				}
				call, addr := c.acquisition(f, h)
				if call == nil || !head.Dominates(call.Block()) || variesIn(addr, head) || c.res.Unshared(f, h.ID, call) {
					continue
				}
				reported[h.Pos] = true
				h.Name = c.lockName(h.ID, h.Pos)
				c.report(h.Pos, "double-lock", fmt.Sprintf("%s locked in a loop whose defer releases it only when %s returns: the next iteration locks it again (%s)",
					h.Name, funcLabel(f.Fn), c.where(h)), h)
			}
		}
	}
}

// acquisition returns the Lock or RLock call of f that took h, and the
// lock's address as that call names it; nil when h was taken otherwise
// (a TryLock, a wrapper).
func (c *checker) acquisition(f *summary.Func, h lockstate.Held) (*ssa.Call, ssa.Value) {
	call, op := acquireCall(f, h)
	if call == nil || op.Kind != lockstate.Acquire {
		return nil, nil
	}
	return call, op.Recv
}
