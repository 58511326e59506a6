package summary

import (
	"golang.org/x/tools/go/ssa"
)

// Func values handed to a callee that calls them (a parameter in the
// callee's CallsParams) run during the call: once.Do(h.loadAll), a filter
// helper given a predicate.

// CalledFn returns the function a func value runs when it is called: the
// function or closure itself, or for a method value x.M the method M
// (bound is then set: its receiver is x, the closure's one binding). It
// returns nil for a func-typed variable, and for a method value of an
// interface, whose method is not known.
func CalledFn(v ssa.Value) (fn *ssa.Function, bound bool) {
	g := ClosureFn(v)
	if g == nil {
		return nil, false
	}
	if m, iface, ok := BoundMethod(g); ok {
		if iface || m == nil {
			return nil, false
		}
		return m, true
	}
	return g, false
}
