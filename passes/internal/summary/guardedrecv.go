package summary

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// This file recognises receives that a branch the function itself takes
// shows ready, two idioms that state their non-blocking intent:
//
//	if !t.Stop() {
//		<-t.C // drain the tick that fired: it is already in the channel
//	}
//
//	if len(ch) > 0 {
//		v := <-ch // a value is there: take it
//	}
//
// A timer whose Stop reports false has fired: its tick is buffered, or
// (with Go 1.23's synchronous timers, where Stop reports true for a fired
// tick nobody took) the branch runs only when the tick was taken already.
// A length check under the lock every sender and receiver takes sees the
// value the receive takes.

// guardedRecv reports whether recv runs only where a dominating branch
// has shown it ready: the false branch of its timer's Stop, or the true
// branch of len(ch) > 0 (len(ch) != 0, len(ch) >= 1) on its channel. The
// other branch may end in a crash instead of rejoining the path (if
// len(ch) == 0 { log.Panicf("BUG: ...") }): dead tells the blocks from
// which every path dies, or is nil.
func guardedRecv(recv *ssa.UnOp, dead func(*ssa.BasicBlock) bool) bool {
	if recv.Op != token.ARROW {
		return false
	}
	timer := timerOfChan(recv.X)
	return guardedBy(recv.Block(), dead, func(cond ssa.Value, taken bool) bool {
		if timer != nil && !taken && isTimerStop(cond, timer) {
			return true
		}
		return lenPositive(cond, recv.X, taken)
	})
}

// guardedBy reports whether some branch that b can only be reached
// through satisfies ok, given the branch's condition and the edge taken
// (true for the then edge). A branch qualifies when the successor on that
// edge has the If's block as its only predecessor and dominates b; other
// predecessors that dead reports (every path from them dies) do not
// count.
func guardedBy(b *ssa.BasicBlock, dead func(*ssa.BasicBlock) bool, ok func(cond ssa.Value, taken bool) bool) bool {
	for c := b; c != nil && c.Idom() != nil; c = c.Idom() {
		d := c.Idom()
		if !onlyLivePred(c, d, dead) || len(d.Instrs) == 0 {
			continue
		}
		iff, isIf := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !isIf || len(d.Succs) != 2 || d.Succs[0] == d.Succs[1] {
			continue
		}
		cond, taken := iff.Cond, c == d.Succs[0]
		for {
			not, isNot := cond.(*ssa.UnOp)
			if !isNot || not.Op != token.NOT {
				break
			}
			cond, taken = not.X, !taken
		}
		if ok(cond, taken) {
			return true
		}
	}
	return false
}

// onlyLivePred reports whether d is c's one predecessor, not counting
// those dead reports.
func onlyLivePred(c, d *ssa.BasicBlock, dead func(*ssa.BasicBlock) bool) bool {
	found := false
	for _, p := range c.Preds {
		switch {
		case p == d && !found:
			found = true
		case dead == nil || !dead(p):
			return false
		}
	}
	return found
}

// timerOfChan returns the timer whose C field ch loads (t.C of a
// *time.Timer), or nil.
func timerOfChan(ch ssa.Value) ssa.Value {
	load, ok := stripConv(ch).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || !isTimerPtr(fa.X.Type()) || fieldName(fa.X.Type(), fa.Field) != "C" {
		return nil
	}
	return fa.X
}

// isTimerStop reports whether cond is a call of timer's Stop method.
func isTimerStop(cond, timer ssa.Value) bool {
	call, ok := cond.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Name() != "Stop" || len(call.Common().Args) != 1 || !isTimerPtr(call.Common().Args[0].Type()) {
		return false
	}
	return sameInstance(call.Common().Args[0], timer)
}

func isTimerPtr(t interface{ String() string }) bool {
	return t.String() == "*time.Timer"
}

// lenPositive reports whether cond, on the edge taken, shows ch non-empty:
// len(ch) > 0, len(ch) != 0 or len(ch) >= 1 taken, or len(ch) == 0 not.
func lenPositive(cond, ch ssa.Value, taken bool) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	x, op, n, ok := constCompare(bin) // 0 < len(ch) is len(ch) > 0
	if !ok || !isLenOf(x, ch) {
		return false
	}
	switch {
	case taken && op == token.GTR && n == 0, taken && op == token.NEQ && n == 0, taken && op == token.GEQ && n == 1:
		return true
	case !taken && op == token.EQL && n == 0:
		return true
	}
	return false
}

// intConst returns the value of v, an integer constant that fits an
// int64.
func intConst(v ssa.Value) (int64, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// isIntConst reports whether v is the integer constant n.
func isIntConst(v ssa.Value, n int64) bool {
	k, ok := intConst(v)
	return ok && k == n
}

// isLenOf reports whether v is len(ch) of the same channel instance.
func isLenOf(v, ch ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := call.Common().Value.(*ssa.Builtin)
	return ok && b.Name() == "len" && len(call.Common().Args) == 1 && sameInstance(call.Common().Args[0], ch)
}

// sameInstance reports whether a and b are the same value, or loads of the
// same field path from the same value (t.timer read twice).
func sameInstance(a, b ssa.Value) bool { return sameInstanceBound(a, b, nil) }

// sameInstanceBound is sameInstance for a, a value of the closure mc
// makes, and b, a value of the function that makes it: a's free
// variables are mc's bindings.
func sameInstanceBound(a, b ssa.Value, mc *ssa.MakeClosure) bool {
	for range 8 {
		a, b = stripConv(a), stripConv(b)
		if fv, ok := a.(*ssa.FreeVar); ok && mc != nil {
			if i := slices.Index(mc.Fn.(*ssa.Function).FreeVars, fv); i >= 0 && i < len(mc.Bindings) {
				a = mc.Bindings[i]
			}
		}
		if a == b {
			return true
		}
		switch x := a.(type) {
		case *ssa.UnOp:
			y, ok := b.(*ssa.UnOp)
			if !ok || x.Op != token.MUL || y.Op != token.MUL {
				return false
			}
			a, b = x.X, y.X
		case *ssa.FieldAddr:
			y, ok := b.(*ssa.FieldAddr)
			if !ok || x.Field != y.Field {
				return false
			}
			a, b = x.X, y.X
		default:
			return false
		}
	}
	return false
}
