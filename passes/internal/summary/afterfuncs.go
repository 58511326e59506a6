package summary

import (
	"golang.org/x/tools/go/ssa"
)

// A func handed to time.AfterFunc or context.AfterFunc runs on a goroutine
// of its own, but only once the timer fires or the context ends: a wait
// for what it signals lasts until then, not for a short step of a worker.
// It is a join only once the func is known to have started, past a stop
// that reported it too late to prevent it:
//
//	stop := context.AfterFunc(ctx, func() { defer wg.Done(); c.kill() })
//	res, err := c.exec(q)
//	if !stop() {
//		wg.Wait() // kill has begun: wait for it to finish
//	}
//
// (for time.AfterFunc, if !t.Stop() { ... }).

// noteAfterFunc records that the AfterFunc call c starts body.
func (ix *joinIndex) noteAfterFunc(body *ssa.Function, c *ssa.Call) {
	if body == nil {
		return
	}
	if ix.afterFuncs == nil {
		ix.afterFuncs = map[*ssa.Function][]*ssa.Call{}
	}
	ix.afterFuncs[body] = append(ix.afterFuncs[body], c)
}

// afterFuncsStarted reports whether, for each of the workers that an
// AfterFunc starts, instr of fn runs only once that func has started: it
// lies past the false branch of a stop, in fn, of the one AfterFunc call
// that starts it (the timer or the stop func reached through variables
// and closures' captures, as a deferred closure reaches them).
func (a *analyzer) afterFuncsStarted(fn *ssa.Function, instr ssa.Instruction, workers []*ssa.Function) bool {
	ix := a.joins()
	for _, w := range workers {
		calls, ok := ix.afterFuncs[w]
		if !ok {
			continue
		}
		if len(calls) != 1 || !stoppedTooLate(fn, calls[0], instr) {
			return false
		}
	}
	return true
}

// stoppedTooLate reports whether instr of fn lies past the branch taken
// when a stop of the AfterFunc call c reports false: a call of the stop
// func context.AfterFunc returned, or of the Stop method of the timer
// time.AfterFunc returned.
func stoppedTooLate(fn *ssa.Function, c *ssa.Call, instr ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		iff, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		stop, ok := iff.Cond.(*ssa.Call)
		if !ok || !isStopOf(fn, stop, c) {
			continue
		}
		late := b.Succs[1]
		if len(late.Preds) == 1 && late.Dominates(instr.Block()) {
			return true
		}
	}
	return false
}

// isStopOf reports whether call, in fn, stops the AfterFunc call c: calls
// the stop func context.AfterFunc returned, or the Stop method of the
// timer time.AfterFunc returned.
func isStopOf(fn *ssa.Function, call, c *ssa.Call) bool {
	is := func(v ssa.Value) bool {
		_, v = throughCells(fn, v)
		return v == ssa.Value(c)
	}
	cc := call.Common()
	if len(cc.Args) == 0 && !cc.IsInvoke() && is(cc.Value) {
		return true
	}
	callee := cc.StaticCallee()
	if callee == nil {
		return false
	}
	obj := FuncObject(callee)
	return obj != nil && obj.Name() == "Stop" && obj.Pkg() != nil && obj.Pkg().Path() == "time" && len(cc.Args) == 1 && is(cc.Args[0])
}
