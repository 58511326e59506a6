package lockorder

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file reads what a result is on the path an exit takes when the
// value itself is not a constant, but a branch on it decides the path:
//
//	c, ok := l.begin()
//	if !ok {
//		l.mu.Unlock()
//	}
//	return c, ok // ok is true where the lock is kept, false where not
//
// The exit that keeps the lock comes by the edge where !ok is false, the
// one that releases it by the edge where it is true: the result tells the
// caller whether it holds the lock, as a constant true or false would.

// resultKind is the kind of the exit's i'th result (see resultKind): a
// constant or a new value, or, failing that, for a bool, the value a
// branch on it (ok, !ok) shows on the way to the exit.
func (ex exit) resultKind(i int) string {
	v := ex.result(i)
	if k := resultKind(v); k != "" {
		return k
	}
	var b *ssa.BasicBlock // the block the exit's path leaves for the return
	if ex.pred >= 0 {
		from := ex.ret.Block().Preds[ex.pred]
		if k := edgeKind(from, ex.ret.Block(), v); k != "" {
			return k
		}
		b = from
	} else {
		b = ex.ret.Block()
	}
	// Up the dominator tree, through blocks entered only from their
	// immediate dominator.
	for c := b; c != nil && c.Idom() != nil; c = c.Idom() {
		d := c.Idom()
		if len(c.Preds) != 1 || c.Preds[0] != d {
			continue
		}
		if k := edgeKind(d, c, v); k != "" {
			return k
		}
	}
	return ""
}

// edgeKind returns what the edge from block d to its successor c shows of
// v, a bool, when d ends in a branch on it: "true" or "false"; "" when it
// shows nothing. An error's test (err != nil) is not read: a function
// that forgets the Unlock on its success path alone returns a nil error
// where it keeps the lock, and would pass for an acquirer.
func edgeKind(d, c *ssa.BasicBlock, v ssa.Value) string {
	if len(d.Instrs) == 0 || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] {
		return ""
	}
	iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	if !ok || (c != d.Succs[0] && c != d.Succs[1]) {
		return ""
	}
	taken := c == d.Succs[0]
	cond := iff.Cond
	for {
		not, ok := cond.(*ssa.UnOp)
		if !ok || not.Op != token.NOT {
			break
		}
		cond, taken = not.X, !taken
	}
	if cond != v {
		return ""
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return ""
	}
	if taken {
		return "true"
	}
	return "false"
}
