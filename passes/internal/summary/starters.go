package summary

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file recognises starters: functions that run a func they are
// handed on a goroutine of its own, as a go statement would.
//
//	func (g *Group) Start(f func()) { // k8s.io/apimachinery's wait.Group
//		g.wg.Add(1)
//		go func() { defer g.wg.Done(); f() }()
//	}
//
//	s.wg.Start(l.pop) // starts l.pop as go l.pop() would
//
// A goroutine a starter runs is one the package starts (joins.go): a send
// to a pump it started that way is a hand-off, not a wait. Other packages
// learn a starter's parameters from its fact (Summary.Starts).

// maxStarterDepth bounds the chain of the package's own starters followed
// (StartWithChannel calls Start).
const maxStarterDepth = 4

// startedParams returns the indices (the receiver first) of fn's
// parameters that fn runs on a goroutine of its own: in a go statement,
// in a func literal a go statement runs, or by handing them to a starter.
func (a *analyzer) startedParams(fn *ssa.Function) []int {
	return a.startedParamsAt(fn, maxStarterDepth)
}

func (a *analyzer) startedParamsAt(fn *ssa.Function, depth int) []int {
	if out, ok := a.starters[fn]; ok {
		return out
	}
	if a.starters == nil {
		a.starters = map[*ssa.Function][]int{}
	}
	if depth == 0 {
		return nil
	}
	a.starters[fn] = nil // a recursive starter starts nothing more
	var out []int
	add := func(v ssa.Value) {
		if i := startedParam(fn, v); i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Go:
				add(instr.Call.Value)
			case *ssa.Call:
				for _, arg := range a.startedArgsAt(&instr.Call, depth-1) {
					add(arg)
				}
			}
		}
	}
	slices.Sort(out)
	a.starters[fn] = out
	return out
}

// startedArgs returns the arguments a call of a starter runs on
// goroutines of their own.
func (a *analyzer) startedArgs(c *ssa.CallCommon) []ssa.Value {
	return a.startedArgsAt(c, maxStarterDepth)
}

func (a *analyzer) startedArgsAt(c *ssa.CallCommon, depth int) []ssa.Value {
	callee := c.StaticCallee()
	if callee == nil || c.IsInvoke() {
		return nil
	}
	var starts []int
	if d := a.declared(callee); a.funcs[d] != nil {
		starts = a.startedParamsAt(d, depth)
	} else if s := a.summary(callee); s != nil {
		starts = s.Starts
	}
	// Starts counts the receiver; a call of a method value (a bound
	// wrapper) has it bound, not among its arguments.
	args, first := c.Args, 0
	if isBound(callee) {
		args, first = MethodArgs(c), 1
	}
	var out []ssa.Value
	for _, i := range starts {
		if i >= first && i < len(args) {
			out = append(out, args[i])
		}
	}
	return out
}

// startedParam returns the index of the parameter of fn that a goroutine
// running v runs at once: v itself, or a func literal whose first act is
// to call it (go func() { defer wg.Done(); f() }()), or -1. A literal that
// may wait, lock, branch or call anything else first (a semaphore slot, a
// ready channel, a closed check) does not run it at once.
func startedParam(fn *ssa.Function, v ssa.Value) int {
	if i := paramIndex(fn, v); i >= 0 {
		return i
	}
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return -1
	}
	lit, ok := mc.Fn.(*ssa.Function)
	if !ok || len(lit.Blocks) == 0 {
		return -1
	}
	for _, instr := range lit.Blocks[0].Instrs {
		switch instr := instr.(type) {
		case *ssa.Call:
			callee := instr.Call.Value
			if ld, ok := callee.(*ssa.UnOp); ok && ld.Op == token.MUL {
				callee = ld.X // a captured variable, loaded
			}
			j := slices.IndexFunc(lit.FreeVars, func(fv *ssa.FreeVar) bool { return fv == callee })
			if instr.Call.IsInvoke() || j < 0 || j >= len(mc.Bindings) {
				return -1 // another call comes first
			}
			return paramIndex(fn, heldValue(mc, mc.Bindings[j]))
		case *ssa.Defer, *ssa.UnOp, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef, *ssa.MakeInterface, *ssa.ChangeType, *ssa.Convert:
			// Deferred work runs on the way out; loads and addresses
			// do not wait. A receive (an UnOp too) does.
			if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW {
				return -1
			}
		default:
			return -1
		}
	}
	return -1
}

// heldValue returns what v, a value the closure mc captures, holds: for
// a local variable (an Alloc), the one value stored into it, when nothing
// else can store into it (mc only reads it, and no other closure captures
// it); otherwise v.
func heldValue(mc *ssa.MakeClosure, v ssa.Value) ssa.Value {
	cell, ok := v.(*ssa.Alloc)
	if !ok {
		return v
	}
	if !onlyReads(mc, cell) {
		return nil
	}
	for _, r := range *cell.Referrers() {
		if other, ok := r.(*ssa.MakeClosure); ok && other != mc {
			return nil // another closure may set it
		}
	}
	return lockstate.SetOnce(cell)
}

// paramIndex returns the index of v among fn's parameters, or -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return -1
	}
	return slices.Index(fn.Params, p)
}

// indexStarterCall records the goroutines a call of a starter starts, as
// a go statement's (joins.go).
func (a *analyzer) indexStarterCall(ix *joinIndex, fn *ssa.Function, c *ssa.Call) {
	for _, arg := range a.startedArgs(c.Common()) {
		ix.starts = append(ix.starts, a.startOf(fn, &ssa.CallCommon{Value: arg}))
		if t := ClosureFn(arg); t != nil {
			ix.goBodies[a.declared(t)] = true
		} else {
			ix.openGo = true
		}
	}
}
