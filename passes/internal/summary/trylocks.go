package summary

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// A lock that the package only ever takes with TryLock (or TryRLock) is a
// flag, not a queue: a goroutine that finds it held goes on without it,
// so nobody waits for it however long its holder blocks.
//
//	func (p *provider) provideLoop() {
//		if !p.provideRunning.TryLock() {
//			return // a loop is already running
//		}
//		defer p.provideRunning.Unlock()
//		p.workers.Acquire() // no goroutine waits for provideRunning
//
// The lock must be private (an unexported field, only ever locked and
// unlocked), so no code out of sight takes it with Lock, and no TryLock
// may sit in a loop: a goroutine that spins on it until it gets the lock
// (for !mu.TryLock() { time.Sleep(d) }) waits for it as surely as Lock.

// OnlyTried reports whether every acquisition of locks of class in the
// package's code outside _test.go files is a TryLock or TryRLock made
// outside any loop, and the lock is private (see privateLock). A loop
// that calls a try helper on a timer (a scheduling worker) does not wait
// for the lock, and nobody takes it with Lock, so a caller's loop is not
// held against it here, unlike in TriedElseTornDown.
func (r *Result) OnlyTried(class string) bool {
	a := r.a
	if v, ok := a.onlyTried[class]; ok {
		return v
	}
	if a.onlyTried == nil {
		a.onlyTried = map[string]bool{}
	}
	v := a.privateLock(class) && a.eachAcquire(class, func(_ *ssa.Function, call *ssa.Call, _ lockstate.ID) bool {
		return triedOnce(call)
	})
	a.onlyTried[class] = v
	return v
}

// A lock that the package takes with TryLock everywhere but in teardown
// keeps the teardown from overlapping the tried work; the goroutines that
// try it go on without it, so the teardown, holding it across the final
// flush, delays nobody:
//
//	func (d *DB) Compact() error {
//		if !d.hmu.TryLock() {
//			return errBusy
//		}
//		defer d.hmu.Unlock()
//		...
//	}
//
//	func (d *DB) Close() error {
//		d.hmu.Lock()
//		defer d.hmu.Unlock()
//		return d.db.Update(checkpoint) // no goroutine waits for hmu
//	}

// TriedElseTornDown reports whether fn, the function holding a lock of
// class, is a method of the struct type that owns the lock field, named as
// ending its object's life (srcname.Teardown), or a helper only such
// methods call; and every other acquisition of the class in the package's
// code outside _test.go files is a TryLock or TryRLock (at least one) made
// outside any loop, in a function no call of the package makes in a loop
// (a caller spinning on a try helper waits as surely as Lock); the lock
// being private (see privateLock).
func (r *Result) TriedElseTornDown(class string, fn *ssa.Function) bool {
	a := r.a
	teardown := func(g *ssa.Function) bool { return srcname.Teardown(g.Name()) && ownsClass(g, class) }
	if !a.calledOnlyWithin(Outermost(fn), teardown, 0) {
		return false
	}
	v, ok := a.triedElseTornDown[class]
	if !ok {
		tried := 0
		v = a.privateLock(class) && a.eachAcquire(class, func(g *ssa.Function, call *ssa.Call, _ lockstate.ID) bool {
			if triedOnce(call) && !a.calledInLoop(Outermost(g)) {
				tried++
				return true
			}
			return a.calledOnlyWithin(Outermost(g), teardown, 0)
		}) && tried > 0
		if a.triedElseTornDown == nil {
			a.triedElseTornDown = map[string]bool{}
		}
		a.triedElseTornDown[class] = v
	}
	return v
}

// triedOnce reports whether call is a TryLock or TryRLock made outside any
// loop of its function: a goroutine that finds the lock held goes on.
func triedOnce(call *ssa.Call) bool {
	return lockstate.OpOf(call.Common()).Kind == lockstate.TryAcq && !lockstate.InLoop(call.Block())
}

// ownsClass reports whether fn is a method of the struct type whose field
// lock class is.
func ownsClass(fn *ssa.Function, class string) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	named := namedPointee(recv.Type())
	return named != nil && strings.HasPrefix(class, lockstate.FieldClassPrefix(named))
}

// calledInLoop reports whether the package may spin on fn: a call of fn
// inside a loop whose result the caller reads (if ok := tryFlush(); ok).
// A goroutine started in a loop, or a call per element whose result is
// dropped, tries once each.
func (a *analyzer) calledInLoop(fn *ssa.Function) bool {
	for _, cs := range a.indexed().calls[declaredFn(fn)] {
		call, ok := cs.instr.(*ssa.Call)
		if !ok || call.Block() == nil || !lockstate.InLoop(call.Block()) {
			continue
		}
		if refs := call.Referrers(); refs != nil && len(*refs) > 0 {
			return true
		}
	}
	return false
}
