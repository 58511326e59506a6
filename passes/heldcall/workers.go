package heldcall

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A constructor that has started the object's own background workers (a
// flush loop, an expiry timer) and then locks the object for its I/O holds
// a lock that only those workers can contend for: it delays none of the
// object's users, who do not have it yet. Such locks are dropped from a
// finding, unless the operation may wait for another goroutine: if that is
// one of the workers and it takes the lock first, the constructor
// deadlocks. A finding that names such a cycle is always kept.

// beyondWorkers returns fd, judged again without the locks of held that
// only the objects' own workers can contend for at instr, or nil when no
// lock is left.
func (c *checker) beyondWorkers(f *summary.Func, instr ssa.Instruction, held []lockstate.Held, fd *finding) *finding {
	if fd.waits() {
		return fd
	}
	shared := c.res.SharedBeyondWorkers(f, held, instr)
	switch {
	case len(shared) == len(held):
		return fd
	case len(shared) == 0:
		return nil
	}
	return c.classify(f, instr, shared)
}

// waits reports whether the finding's operation may wait for another
// goroutine of the package: a wait, a select, a channel operation whose
// other sides are not known or one of which takes a held lock first.
func (fd *finding) waits() bool {
	if fd.cycle {
		return true
	}
	op := fd.op
	if op == "" {
		op = fd.category
	}
	switch op {
	case catalog.Wait, "select":
		return true
	case "chan":
		return !fd.sides
	}
	return false
}
