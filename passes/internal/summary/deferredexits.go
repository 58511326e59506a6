package summary

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
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
// their call and the value each deferred closure sees in a captured
// variable, so that judging the conditions of a deferred call again (each
// round of propagation, then the checkers) costs no new walk.
type deferredExits struct {
	defers map[*ssa.Function]map[*ssa.CallCommon]*ssa.Defer
	values map[exitKey]*ssa.Const
}

type exitKey struct {
	d    *ssa.Defer
	cell *ssa.Alloc
}

func newDeferredExits() *deferredExits {
	return &deferredExits{defers: map[*ssa.Function]map[*ssa.CallCommon]*ssa.Defer{}, values: map[exitKey]*ssa.Const{}}
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

// value is deferredExitValue, computed once for each defer and variable.
func (x *deferredExits) value(d *ssa.Defer, cell *ssa.Alloc) *ssa.Const {
	key := exitKey{d, cell}
	if k, ok := x.values[key]; ok {
		return k
	}
	k := deferredExitValue(d, cell)
	x.values[key] = k
	return k
}

// maxExitWalk bounds the single-predecessor blocks walked back from a
// return to the store that sets the variable for it.
const maxExitWalk = 8

// deferredExitValue returns the constant that d's function stores into
// cell, a variable the closure deferred by d captures by reference, last
// before every return that d can run at, or nil: when two returns store
// different values, a return is reached without such a store after d, a
// panic can be reached (the deferred call runs then too, with whatever the
// variable holds), the variable is declared in a loop (a defer of an
// earlier iteration sees that iteration's copy), its address is handed
// out, or a closure may assign it (a defer run earlier, say).
func deferredExitValue(d *ssa.Defer, cell *ssa.Alloc) *ssa.Const {
	if cell.Block() == nil || InLoop(cell.Block()) || !onlyReadByClosures(cell) {
		return nil
	}
	var val *ssa.Const
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{d.Block()}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
		switch lastInstr(b).(type) {
		case *ssa.Panic:
			return nil
		case *ssa.Return:
		default:
			continue
		}
		k := storedBeforeExit(b, d, cell)
		if k == nil || val != nil && !sameConst(val, k) {
			return nil
		}
		val = k
	}
	return val
}

// storedBeforeExit returns the constant stored into cell last before the
// return ending ret, walking back through blocks with one predecessor but
// not past d; nil when it is not a constant or not found.
func storedBeforeExit(ret *ssa.BasicBlock, d *ssa.Defer, cell *ssa.Alloc) *ssa.Const {
	b := ret
	for range maxExitWalk {
		for i := len(b.Instrs) - 1; i >= 0; i-- {
			switch instr := b.Instrs[i].(type) {
			case *ssa.Defer:
				if instr == d {
					return nil // back at the defer: nothing stored after it
				}
			case *ssa.Store:
				if instr.Addr == cell {
					k, _ := instr.Val.(*ssa.Const)
					return k
				}
			}
		}
		if len(b.Preds) != 1 {
			return nil
		}
		b = b.Preds[0]
	}
	return nil
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
