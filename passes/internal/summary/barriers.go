package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// This file finds start barriers: a WaitGroup of the function that each
// goroutine it starts marks done before it does anything else.
//
//	var started sync.WaitGroup
//	for range n {
//		started.Add(1)
//		go func() {
//			started.Done() // first
//			for item := range q.items { consume(item) }
//		}()
//	}
//	started.Wait() // until each goroutine has begun, not finished
//
// The wait lasts until the goroutines are scheduled, whatever they do
// after: it waits for no event, no I/O and no lock.

// startBarrier reports whether instr, in fn, waits on a WaitGroup of fn
// whose every Done is the first thing a goroutine of the package does:
// in its entry block, after nothing that can wait or call.
func (a *analyzer) startBarrier(fn *ssa.Function, instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	wg, done, ok := waitGroupOp(call.Common())
	if !ok || done {
		return false
	}
	k := a.chanKeyOf(fn, wg)
	alloc, ok := k.(*ssa.Alloc)
	if !ok || alloc.Parent() != fn {
		return false
	}
	dones := a.joins().signals[k]
	if len(dones) == 0 {
		return false
	}
	for _, d := range dones {
		g := d.Parent()
		if g == fn || a.worker(g) != g || !firstStep(g, d) {
			return false
		}
	}
	return true
}

// firstStep reports whether the call d of g is in g's entry block with
// nothing before it that can wait: no call, channel operation or select.
func firstStep(g *ssa.Function, d ssa.Instruction) bool {
	if _, ok := d.(*ssa.Call); !ok || len(g.Blocks) == 0 || d.Block() != g.Blocks[0] {
		return false
	}
	for _, instr := range g.Blocks[0].Instrs {
		if instr == d {
			return true
		}
		switch instr := instr.(type) {
		case ssa.CallInstruction, *ssa.Send, *ssa.Select:
			return false
		case *ssa.UnOp:
			if instr.Op == token.ARROW {
				return false
			}
		}
	}
	return false
}
