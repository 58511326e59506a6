package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file finds waits under the read side of a fence that the fence's
// writers end before they ask for it. A queue's producers hold the read
// side while they wait for room, and each wait also listens on the
// queue's closing channel; the closer closes that channel first, then
// takes the write side to drain what is left:
//
//	func (q *queue) Push(m msg) bool {
//		q.closingLock.RLock()
//		defer q.closingLock.RUnlock()
//		select {
//		case q.items <- m:
//			return true
//		case <-q.closing: // closed before any writer locks
//			return false
//		}
//	}
//
//	func (q *queue) Close() {
//		close(q.closing)
//		q.closingLock.Lock()
//		defer q.closingLock.Unlock()
//		...
//	}
//
// Readers share the read side, so only a writer can wait for a reader;
// every writer has woken the reader before it waits, so the read side
// keeps no one waiting. The wait must listen on the very channel of the
// very object whose lock is held, and every write acquisition of the lock
// must come after a close of that object's channel on every path to it.

// ClosedFirst returns held without the read locks that the wait instr (a
// blocking select or a receive of f) does not keep anyone waiting for:
// private RWMutex fields whose every write acquisition in the package is
// preceded, on every path, by a close of a channel field of the same
// object that the wait receives from.
func (r *Result) ClosedFirst(f *Func, instr ssa.Instruction, held []lockstate.Held) []lockstate.Held {
	if f == nil || f.Flow == nil {
		return held
	}
	var recvs []ssa.Value
	switch instr := instr.(type) {
	case *ssa.Select:
		for _, st := range instr.States {
			if st.Dir == types.RecvOnly {
				recvs = append(recvs, st.Chan)
			}
		}
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			recvs = append(recvs, instr.X)
		}
	}
	if len(recvs) == 0 {
		return held
	}
	var out []lockstate.Held
	for _, h := range held {
		if !r.a.wokenFence(f, h, recvs) {
			out = append(out, h)
		}
	}
	return out
}

// wokenFence reports whether the held lock h is the read side of a
// private lock whose writers all close one of the channels recvs first.
func (a *analyzer) wokenFence(f *Func, h lockstate.Held, recvs []ssa.Value) bool {
	if h.Mode != lockstate.Read || h.Class == "" || h.Inherited || h.Root == lockstate.RootGlobal || !a.privateLock(h.Class) {
		return false
	}
	for _, ch := range recvs {
		id := f.Flow.IDOf(ch)
		if id.Class == "" || id.Root == lockstate.RootGlobal || !lockstate.SameOwner(id, h.ID) || !a.closeOnlyChan(ch) {
			continue
		}
		if a.closedBeforeWrites(h.Class, id.Class) {
			return true
		}
	}
	return false
}

// closeOnlyChan reports whether ch is loaded from a channel field that
// only the package can reach and that is set only while its object is
// built (a store into a new object of a channel the package makes), never
// swapped for another later: closing it is the package's business alone,
// and a reader waits on the very channel the writer closes.
func (a *analyzer) closeOnlyChan(ch ssa.Value) bool {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	f := FieldVar(fa)
	if f == nil || !a.fieldUnreachable(fa, f) {
		return false
	}
	return a.eachFieldStore(f.Origin(), func(at *ssa.FieldAddr, st *ssa.Store) bool {
		_, made := st.Val.(*ssa.MakeChan)
		_, fresh := at.X.(*ssa.Alloc)
		return made && fresh
	})
}

// closedBeforeWrites reports whether every write acquisition of a lock of
// lockClass in the package's code outside _test.go files comes after a
// close of the channel of chClass of the same object, on every path to it
// in its function, and there is at least one.
func (a *analyzer) closedBeforeWrites(lockClass, chClass string) bool {
	k := nestKey{lockClass, chClass}
	if v, ok := a.closedFirst[k]; ok {
		return v
	}
	writes := 0
	ok := a.eachAcquire(lockClass, func(fn *ssa.Function, call *ssa.Call, lock lockstate.ID) bool {
		if lockstate.OpOf(call.Common()).Mode != lockstate.Write {
			return true
		}
		writes++
		return a.closedBefore(fn, call, chClass, lock)
	})
	ok = ok && writes > 0
	if a.closedFirst == nil {
		a.closedFirst = map[nestKey]bool{}
	}
	a.closedFirst[k] = ok
	return ok
}

// closedBefore reports whether fn closes a channel of chClass of the
// object lock belongs to on every path to call.
func (a *analyzer) closedBefore(fn *ssa.Function, call *ssa.Call, chClass string, lock lockstate.ID) bool {
	f := a.funcs[fn]
	if f == nil || f.Flow == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok || !isClose(c.Common()) {
				continue
			}
			id := f.Flow.IDOf(c.Call.Args[0])
			if id.Class == chClass && lockstate.SameOwner(id, lock) && dominatesInstr(c, call) {
				return true
			}
		}
	}
	return false
}

// dominatesInstr reports whether x runs on every path to y, in one
// function.
func dominatesInstr(x, y ssa.Instruction) bool {
	bx, by := x.Block(), y.Block()
	if bx == nil || by == nil {
		return false
	}
	if bx != by {
		return bx.Dominates(by)
	}
	for _, instr := range bx.Instrs {
		switch instr {
		case x:
			return true
		case y:
			return false
		}
	}
	return false
}
