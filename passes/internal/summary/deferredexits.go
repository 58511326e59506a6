package summary

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file decides what a deferred closure sees in a variable it
// captures by reference when it runs: the value the function leaves there
// at each return the defer can run at. The undo of a step, deferred once
// the step has succeeded, usually tests the named error result:
//
//	if err := mount.All(mounts, dir); err != nil {
//		return nil, err
//	}
//	defer func() {
//		if retErr != nil {
//			mount.Unmount(dir, 0) // never runs: every later return is nil
//		}
//	}()
//	...
//	return mounts, nil
//
// When every return after the defer stores the same constant into the
// variable, that constant is the closure's value there.

// deferredExits caches, for a package, each function's defer statements by
// their call and, for each captured variable, the values it can hold at
// the returns reachable from each block, so that judging the conditions
// of deferred calls (each round of propagation, then the checkers) costs
// one walk of the function per variable.
type deferredExits struct {
	defers map[*ssa.Function]map[*ssa.CallCommon]*ssa.Defer
	cells  map[*ssa.Alloc]map[*ssa.BasicBlock]exitVals
}

func newDeferredExits() *deferredExits {
	return &deferredExits{defers: map[*ssa.Function]map[*ssa.CallCommon]*ssa.Defer{}, cells: map[*ssa.Alloc]map[*ssa.BasicBlock]exitVals{}}
}

// deferAt returns the defer statement of fn whose call is call, or nil.
func (x *deferredExits) deferAt(fn *ssa.Function, call *ssa.CallCommon) *ssa.Defer {
	if x == nil || fn == nil || call == nil {
		return nil
	}
	byCall, ok := x.defers[fn]
	if !ok {
		byCall = map[*ssa.CallCommon]*ssa.Defer{}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if d, ok := instr.(*ssa.Defer); ok {
					byCall[&d.Call] = d
				}
			}
		}
		x.defers[fn] = byCall
	}
	return byCall[call]
}

// value returns the constant that d's function leaves in cell, a
// variable the closure deferred by d captures by reference, at every
// return that d can run at, or nil: when two returns leave different
// values or a value that is not a constant, a return is reached with no
// store after d (the variable keeps what it held before), a panic can be
// reached (the deferred call runs then too), the variable is declared in
// a loop (a defer of an earlier iteration sees that iteration's copy),
// its address is handed out, or a closure may assign it (a defer run
// earlier, say).
func (x *deferredExits) value(d *ssa.Defer, cell *ssa.Alloc) *ssa.Const {
	atEnd, ok := x.cells[cell]
	if !ok {
		if cell.Block() != nil && !lockstate.InLoop(cell.Block()) && onlyReadByClosures(cell) {
			atEnd = exitsAtBlockEnds(d.Parent(), cell)
		}
		x.cells[cell] = atEnd // nil: the variable is not decided anywhere
	}
	if atEnd == nil {
		return nil
	}
	v := atEnd[d.Block()]
	// A store after d in its own block decides the paths that reach a
	// return without another store.
	instrs := d.Block().Instrs
	for i := len(instrs) - 1; i >= 0 && instrs[i] != ssa.Instruction(d); i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == cell {
			v = v.setBy(st.Val)
			break
		}
	}
	if v.unset || v.many || v.k == nil {
		return nil
	}
	return v.k
}

// exitVals is what a variable holds at the returns reachable from a
// point: k when every path stores the constant k (many when paths store
// different values or one that is not a constant, or reach a panic), and
// unset when some path reaches a return with no store at all. The zero
// value reaches no return.
type exitVals struct {
	k           *ssa.Const
	unset, many bool
}

func (v exitVals) join(w exitVals) exitVals {
	out := exitVals{k: v.k, unset: v.unset || w.unset, many: v.many || w.many}
	switch {
	case out.k == nil:
		out.k = w.k
	case w.k != nil && !sameConst(v.k, w.k):
		out.many = true
	}
	if out.many {
		out.k = nil // no one value: the lattice's top, whatever the order of joins
	}
	return out
}

// setBy returns v seen from before a store of val: the paths that stored
// nothing now end with val.
func (v exitVals) setBy(val ssa.Value) exitVals {
	if !v.unset {
		return v
	}
	v.unset = false
	k, ok := val.(*ssa.Const)
	if !ok {
		return exitVals{many: true}
	}
	return v.join(exitVals{k: k})
}

// exitsAtBlockEnds computes, for each block of fn, what cell holds at the
// returns reachable from the block's end: a backward dataflow to a fixed
// point, linear in the size of fn (each block's value only grows, in a
// lattice of height four).
func exitsAtBlockEnds(fn *ssa.Function, cell *ssa.Alloc) map[*ssa.BasicBlock]exitVals {
	lastStore := map[*ssa.BasicBlock]ssa.Value{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == cell {
				lastStore[b] = st.Val
			}
		}
	}
	atEnd := map[*ssa.BasicBlock]exitVals{}
	atStart := map[*ssa.BasicBlock]exitVals{}
	work := append([]*ssa.BasicBlock(nil), fn.Blocks...)
	queued := map[*ssa.BasicBlock]bool{}
	for _, b := range work {
		queued[b] = true
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		queued[b] = false
		var end exitVals
		switch lastInstr(b).(type) {
		case *ssa.Return:
			end = exitVals{unset: true}
		case *ssa.Panic:
			end = exitVals{many: true}
		default:
			for _, s := range b.Succs {
				end = end.join(atStart[s])
			}
		}
		start := end
		if val, ok := lastStore[b]; ok {
			start = end.setBy(val)
		}
		atEnd[b] = end
		if start == atStart[b] {
			continue
		}
		atStart[b] = start
		for _, p := range b.Preds {
			if !queued[p] {
				queued[p] = true
				work = append(work, p)
			}
		}
	}
	return atEnd
}

// onlyReadByClosures reports whether cell is only stored to, loaded and
// captured by closures that only load it.
func onlyReadByClosures(cell *ssa.Alloc) bool {
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != cell {
				return false // the cell's address is stored somewhere
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			if !onlyReads(r, cell) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// sameConst reports whether two constants are the same value (nil, or
// equal basic values).
func sameConst(x, y *ssa.Const) bool {
	if x.Value == nil || y.Value == nil {
		return x.Value == nil && y.Value == nil && x.IsNil() && y.IsNil()
	}
	return x.Value.Kind() == y.Value.Kind() && constant.Compare(x.Value, token.EQL, y.Value)
}
