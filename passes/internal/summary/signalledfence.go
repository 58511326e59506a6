package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// A close fence whose closer signals the shutdown before it takes the
// write side: every request holds the read side for its whole life (an
// in-flight counter), and Stop first cancels the context the requests
// wait on, then takes the write side to wait for them to drain:
//
//	func (d *Dispatcher) Session(stream Stream) error {
//		d.rpcRW.RLock()
//		defer d.rpcRW.RUnlock()
//		for {
//			select { // a wait the closer's cancel ends
//			case u := <-d.updates:
//				...
//			case <-d.ctx.Done():
//				return d.ctx.Err()
//			}
//		}
//	}
//
//	func (d *Dispatcher) Stop() {
//		d.cancel()     // the requests' waits end
//		d.rpcRW.Lock() // and the closer waits for them to drain
//		...
//	}
//
// A request may wait for ever while it holds the read side, but the only
// goroutine it holds up is the closer, which has already told it to stop:
// the wait is a drain by design, not a stall of other work. Without the
// signal (TeardownOnly alone) only waits that end by themselves are a
// drain; a request stuck on a channel would hang the closer.

// SignalledFence reports whether locks of class are a close fence
// (TeardownOnly) whose every writer outside _test.go files signals the
// shutdown before it takes the write side: each of its write locks of the
// class comes after a call of a context's cancel func or a close of a
// channel, on every path to it.
func (r *Result) SignalledFence(class string) bool {
	a := r.a
	if v, ok := a.signalledFences[class]; ok {
		return v
	}
	ok := r.TeardownOnly(class)
	for fn := range a.lockWriters[class] {
		if !ok {
			break
		}
		if !srcname.InTest(a.pass.Fset, fn.Pos()) {
			ok = a.signalsBeforeWriting(fn, class)
		}
	}
	if a.signalledFences == nil {
		a.signalledFences = map[string]bool{}
	}
	a.signalledFences[class] = ok
	return ok
}

// signalsBeforeWriting reports whether fn takes the write side of class
// itself, and only after a shutdown signal (isShutdownSignal) that
// dominates each such lock. A write lock in one of fn's closures, or one
// fn holds without taking it, is not known to follow the signal.
func (a *analyzer) signalsBeforeWriting(fn *ssa.Function, class string) bool {
	if len(fn.AnonFuncs) > 0 && anyWriteLock(a, fn.AnonFuncs, class) {
		return false
	}
	flow := a.flows[fn]
	if flow == nil {
		return false
	}
	var signals, locks []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if isShutdownSignal(c.Common()) {
				signals = append(signals, instr)
				continue
			}
			op := lockstate.OpOf(c.Common())
			if (op.Kind == lockstate.Acquire || op.Kind == lockstate.TryAcq) && op.Mode == lockstate.Write && flow.IDOf(op.Recv).Class == class {
				locks = append(locks, instr)
			}
		}
	}
	for _, l := range locks {
		if !dominatedBy(l, signals) {
			return false
		}
	}
	return len(locks) > 0
}

// anyWriteLock reports whether one of fns (or their closures) takes a
// write lock of class.
func anyWriteLock(a *analyzer, fns []*ssa.Function, class string) bool {
	for _, fn := range fns {
		flow := a.flows[fn]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				op := lockstate.OpOf(c.Common())
				if op.Kind != lockstate.Acquire && op.Kind != lockstate.TryAcq || op.Mode != lockstate.Write {
					continue
				}
				if flow == nil || flow.IDOf(op.Recv).Class == class {
					return true
				}
			}
		}
		if anyWriteLock(a, fn.AnonFuncs, class) {
			return true
		}
	}
	return false
}

// isShutdownSignal reports whether c tells other goroutines to stop: a
// call of a context's cancel func (isCancelFunc) or a close of a channel.
func isShutdownSignal(c *ssa.CallCommon) bool {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		return b.Name() == "close"
	}
	return !c.IsInvoke() && StaticCallee(c) == nil && isCancelFunc(c.Value)
}

// dominatedBy reports whether one of the instructions of signals runs
// on every path to instr, before it.
func dominatedBy(instr ssa.Instruction, signals []ssa.Instruction) bool {
	for _, s := range signals {
		if s.Block() != instr.Block() {
			if s.Block().Dominates(instr.Block()) {
				return true
			}
			continue
		}
		for _, x := range instr.Block().Instrs {
			if x == s {
				return true
			}
			if x == instr {
				break
			}
		}
	}
	return false
}
