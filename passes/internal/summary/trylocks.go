package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
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
