package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file finds the locks that only an object's one background goroutine
// takes:
//
//	func New(dir string) *Watcher {
//		w := &Watcher{hashes: map[string]string{}}
//		go w.watch() // one per watcher, started on the new object
//		return w
//	}
//
//	func (w *Watcher) watch() {
//		for ev := range w.events {
//			w.mu.Lock() // nothing else takes w.mu
//			w.rehash(ev.Name) // reads the file
//			w.mu.Unlock()
//		}
//	}
//
// No other goroutine can be waiting for such a lock while the worker holds
// it across I/O: holding it delays nobody.

// WorkerOnly reports whether locks of class are taken only by one
// goroutine per object: the lock is a field of a struct type T of the
// package, only ever locked and unlocked; the package's code outside
// _test.go files holds it only in a method of T that is only ever started
// by a go statement on a *T just made (once, not in a loop), or in
// helpers only that method calls.
func (r *Result) WorkerOnly(class string) bool {
	a := r.a
	if v, ok := a.workerOnly[class]; ok {
		return v
	}
	if a.workerOnly == nil {
		a.workerOnly = map[string]bool{}
	}
	ok := a.heldOnlyWithin(class, func(w *ssa.Function) bool { return a.singleWorker(w, class) })
	a.workerOnly[class] = ok
	return ok
}

// singleWorker reports whether w is a method of the type that owns lock
// class, that the package runs only as a goroutine started on an object it
// has just made, once per object.
func (a *analyzer) singleWorker(w *ssa.Function, class string) bool {
	if len(w.Params) == 0 || !ownsClass(w, class) || lockstate.LockWrapper(namedPointee(w.Signature.Recv().Type())) {
		return false
	}
	calls := a.directCalls(w)
	if len(calls) == 0 {
		return false
	}
	for _, cs := range calls {
		g, ok := cs.instr.(*ssa.Go)
		if !ok || len(cs.call.Args) == 0 || lockstate.InLoop(g.Block()) {
			return false
		}
		obj := valueAt(cs.call.Args[0], g)
		if !a.privateObject(cs.fn, obj, workers) || a.escapesBefore(obj, g, g, workers) {
			return false
		}
	}
	return true
}
