package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// This file recognises crash handlers: functions that do something only
// once recover() has returned a panic.
//
//	defer utilruntime.HandleCrash() // if r := recover(); r != nil { run the panic handlers }
//
// A deferred call of one runs its body only while the goroutine is
// panicking: what it blocks on or calls back is on a path to a crash, as
// what a function does before a panic it cannot avoid is (noreturn.go),
// and the goroutine receives, sends or signals nothing more. Other
// packages learn it from the fact (Summary.OnPanic).

// OnPanic reports whether fn does nothing but harmless bookkeeping unless
// a panic is recovered in it: its first call is recover(), and every call,
// channel operation and go or defer statement after it runs only on the
// branch where the recovered value is not nil. A handler that starts a
// goroutine there, itself or through its package's functions (a
// supervisor that restarts the worker after a back-off), is no crash
// handler: the work goes on.
func OnPanic(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	var rec *ssa.Call
	for _, instr := range fn.Blocks[0].Instrs {
		c, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "recover" {
			rec = c
		}
		break
	}
	if rec == nil {
		return false
	}
	panicking := recoveredBranch(rec)
	if panicking == nil {
		return false
	}
	for _, b := range fn.Blocks {
		if panicking.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			if instr != rec && acts(instr) {
				return false
			}
		}
	}
	return !startsWork(fn, map[*ssa.Function]bool{}, maxStarterDepth)
}

// startsWork reports whether fn, or a function of its package it calls,
// has a go statement.
func startsWork(fn *ssa.Function, seen map[*ssa.Function]bool, depth int) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	if depth == 0 {
		return true // too deep to tell
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Go:
				return true
			case ssa.CallInstruction:
				callee := instr.Common().StaticCallee()
				if callee == nil {
					callee = ClosureFn(instr.Common().Value)
				}
				if callee != nil && callee.Pkg == fn.Pkg && len(callee.Blocks) > 0 && startsWork(callee, seen, depth-1) {
					return true
				}
			}
		}
	}
	return false
}

// recoveredBranch returns the block entered when the value rec recovered
// is not nil (if r := recover(); r != nil { ... }, or the else of
// r == nil), or nil.
func recoveredBranch(rec *ssa.Call) *ssa.BasicBlock {
	for _, r := range *rec.Referrers() {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || cmp.X != rec || !IsNil(cmp.Y) || cmp.Op != token.NEQ && cmp.Op != token.EQL {
			continue
		}
		for _, u := range *cmp.Referrers() {
			if ifi, ok := u.(*ssa.If); ok && ifi.Cond == cmp {
				succ := ifi.Block().Succs
				if cmp.Op == token.NEQ {
					return onlyFrom(succ[0], ifi.Block())
				}
				return onlyFrom(succ[1], ifi.Block())
			}
		}
	}
	return nil
}

// onlyFrom returns b when its only predecessor is from, so that what it
// dominates runs only on that edge, or nil.
func onlyFrom(b, from *ssa.BasicBlock) *ssa.BasicBlock {
	if len(b.Preds) == 1 && b.Preds[0] == from {
		return b
	}
	return nil
}

// acts reports whether instr can wait, run code or hand work on: a call,
// a channel operation, a go or defer statement.
func acts(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case ssa.CallInstruction, *ssa.Send, *ssa.Select, *ssa.Panic:
		return true
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	}
	return false
}

// deferredCrashHandler reports whether c, a deferred call, runs a crash
// handler: a function of the package, a func literal or a function of
// another package whose fact says so.
func (a *analyzer) deferredCrashHandler(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee == nil {
		callee = ClosureFn(c.Value)
	}
	if callee == nil {
		return false
	}
	if len(callee.Blocks) > 0 {
		return OnPanic(callee)
	}
	s := a.summary(callee)
	return s != nil && s.OnPanic
}
