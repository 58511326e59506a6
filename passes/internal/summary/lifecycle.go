package summary

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// This file finds the locks that serialise only an object's life: Start
// and Stop take them, nothing else does, and no goroutine of the package
// can reach them.
//
//	func (w *ExpiryWatcher) Stop() {
//		w.mu.Lock() // only Start and Stop take it
//		defer w.mu.Unlock()
//		close(w.quit)
//		w.wg.Wait() // mainLoop never takes w.mu
//	}
//
// Holding such a lock across the wait for the workers delays only a
// concurrent Start or Stop, which must not overlap the stop anyway. A
// worker that stops the object itself (mainLoop calling Stop on an error)
// would deadlock: it is a goroutine that takes the lock, which keeps the
// finding.

// LifecycleOnly reports whether locks of class serialise only the
// object's life: the lock is private (see privateLock), or embedded and
// only ever locked and unlocked by the package (onlyLockedField); the
// package's code outside _test.go files holds it only in functions that
// start or end the object (srcname.Startup, srcname.Teardown) and their
// helpers; and no goroutine the package starts takes it.
func (r *Result) LifecycleOnly(class string) bool {
	a := r.a
	if v, ok := a.lifecycles[class]; ok {
		return v
	}
	if a.lifecycles == nil {
		a.lifecycles = map[string]bool{}
	}
	lifecycle := func(fn *ssa.Function) bool { return srcname.Startup(fn.Name()) || srcname.Teardown(fn.Name()) }
	ok := a.heldOnlyWithin(class, lifecycle) && !a.goroutineTakes(class)
	a.lifecycles[class] = ok
	return ok
}

// heldOnlyWithin reports whether locks of class are fields only ever
// locked and unlocked (onlyLockedField, embedded ones too), and the
// package's code outside _test.go files holds them somewhere, and only in
// functions that entry accepts or that only such functions call.
func (a *analyzer) heldOnlyWithin(class string, entry func(*ssa.Function) bool) bool {
	if !a.onlyLockedField(class, true) {
		return false
	}
	holders := 0
	for fn := range a.lockHolders[class] {
		switch {
		case srcname.InTest(a.pass.Fset, fn.Pos()):
		case a.calledOnlyWithin(fn, entry, 0):
			holders++
		default:
			return false
		}
	}
	return holders > 0
}

// goroutineTakes reports whether a goroutine the package starts (or a
// timer's func) may take a lock of class: its body or a closure in it
// acquires it, directly or through its callees, or the package starts a
// goroutine whose body it does not know.
func (a *analyzer) goroutineTakes(class string) bool {
	ix := a.joins()
	if ix.openGo {
		return true
	}
	for w := range ix.goBodies {
		if a.bodyTakes(w, class) {
			return true
		}
	}
	return false
}

// bodyTakes reports whether the goroutine body w, or a closure it runs in
// place, may take a lock of class, directly or through its callees.
func (a *analyzer) bodyTakes(w *ssa.Function, class string) bool {
	for _, fn := range a.family(w) {
		f := a.funcs[fn]
		if f == nil {
			continue
		}
		if len(f.Summary.Acquires) >= maxAcquires {
			return true // the list is cut short
		}
		for _, c := range f.Summary.Acquires {
			if strings.TrimSuffix(c, " (read)") == class {
				return true
			}
		}
	}
	return false
}
