package lockorder

import (
	"iter"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// lockOps yields fn's calls of lock operations (Lock, Unlock, RLock,
// RUnlock, TryLock, a Cond's Wait), deferred or not, in block order, with
// the operation.
func lockOps(fn *ssa.Function) iter.Seq2[ssa.CallInstruction, lockstate.Op] {
	return func(yield func(ssa.CallInstruction, lockstate.Op) bool) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if op := lockstate.OpOf(call.Common()); op.Kind != lockstate.NoOp && !yield(call, op) {
					return
				}
			}
		}
	}
}
