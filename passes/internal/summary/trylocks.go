package summary

import (
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
// outside any loop, and the lock is private (see privateLock).
func (r *Result) OnlyTried(class string) bool {
	a := r.a
	if v, ok := a.onlyTried[class]; ok {
		return v
	}
	if a.onlyTried == nil {
		a.onlyTried = map[string]bool{}
	}
	v := a.privateLock(class) && a.eachAcquire(class, func(_ *ssa.Function, call *ssa.Call, _ lockstate.ID) bool {
		return lockstate.OpOf(call.Common()).Kind == lockstate.TryAcq && !InLoop(call.Block())
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
// class, ends its object's life (srcname.Teardown) or only such functions
// call it, and every other acquisition of the class in the package's code
// outside _test.go files is a TryLock or TryRLock made outside any loop
// (at least one), the lock being private (see privateLock).
func (r *Result) TriedElseTornDown(class string, fn *ssa.Function) bool {
	a := r.a
	teardown := func(fn *ssa.Function) bool { return srcname.Teardown(fn.Name()) }
	if !a.calledOnlyWithin(Outermost(fn), teardown, 0) {
		return false
	}
	v, ok := a.triedElseTornDown[class]
	if !ok {
		tried := 0
		v = a.privateLock(class) && a.eachAcquire(class, func(fn *ssa.Function, call *ssa.Call, _ lockstate.ID) bool {
			if lockstate.OpOf(call.Common()).Kind == lockstate.TryAcq && !InLoop(call.Block()) {
				tried++
				return true
			}
			return a.calledOnlyWithin(Outermost(fn), teardown, 0)
		}) && tried > 0
		if a.triedElseTornDown == nil {
			a.triedElseTornDown = map[string]bool{}
		}
		a.triedElseTornDown[class] = v
	}
	return v
}
