package heldcall

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A teardown (Close, Stop, Shutdown) that holds its object's locks while
// it waits, itself, for background workers of the package to finish (its
// release loop's WaitGroup, its flush loop's done channel) delays nobody
// who may still use the object: its users must not call it once it is
// closing, and the workers do not need those locks, or they would
// deadlock. Such locks are dropped from the finding; a lock a worker takes
// is kept (the deadlock), and so are locks of other objects. A wait
// further down a call chain (a transport's Stop that stops each peer,
// which waits for the peer's senders) stays reported: the object's users
// may still be calling it, and waiting on them was a real bug in etcd.

// teardown returns fd without the locks of f's receiver that the workers
// it waits for do not take, when f is a teardown method and the operation
// at instr waits only for the package's own workers; nil when no lock is
// left.
func (c *checker) teardown(f *summary.Func, instr ssa.Instruction, fd *finding) *finding {
	if !isTeardown(f.Fn) {
		return fd
	}
	takes, ok := c.res.WorkersAt(instr)
	if !ok {
		return fd
	}
	var keep []lockstate.Held
	for _, h := range fd.held {
		ownLock := h.Root == lockstate.RootParam && h.RootIndex == 0 && !h.Inherited
		if ownLock && len(summary.JoinBlocked([]lockstate.Held{h}, takes)) == 0 {
			continue
		}
		keep = append(keep, h)
	}
	if len(keep) == 0 {
		return nil
	}
	fd.held = keep
	return fd
}

// isTeardown reports whether fn is a method that tears its receiver down:
// Close, Stop or Shutdown, or a variant of them (closeLocked, StopAll).
func isTeardown(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || fn.Parent() != nil {
		return false
	}
	name := strings.ToLower(fn.Name())
	for _, p := range []string{"close", "stop", "shutdown"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
