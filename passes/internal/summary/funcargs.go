package summary

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Func values handed to a callee that calls them (a parameter in the
// callee's CallsParams) run during the call: once.Do(h.loadAll), a filter
// helper given a predicate. The locks they take are taken by the call: a
// caller holding one of them deadlocks as surely as if it called them
// itself. combine folds them into the caller's Takes, and CallEffects
// returns them with the callee's.

// CalledFn returns the function a func value runs when it is called: the
// function or closure itself, or for a method value x.M the method M and
// its bound receiver x (recv, nil otherwise). It returns nil for a
// func-typed variable, and for a method value of an interface, whose
// method is not known.
func CalledFn(v ssa.Value) (fn *ssa.Function, recv ssa.Value) {
	g := ClosureFn(v)
	if g == nil {
		return nil, nil
	}
	m, iface, ok := BoundMethod(g)
	if !ok {
		return g, nil
	}
	mc, _ := stripConv(v).(*ssa.MakeClosure)
	if iface || m == nil || mc == nil || len(mc.Bindings) != 1 {
		return nil, nil
	}
	return m, mc.Bindings[0]
}

// A funcArg is a func value handed to a callee, resolved to the function
// it runs and to the caller's values that function's locks hang off.
type funcArg struct {
	param int // the callee's parameter it is passed as
	fn    *ssa.Function
	// args are the function's parameters that the caller knows: a method
	// value's receiver, parameter 0. The callee passes the others.
	args []ssa.Value
	// bindings are a closure's captured values.
	bindings []ssa.Value
}

// funcArgOf resolves the func value v, handed to a callee, to what it runs.
func funcArgOf(v ssa.Value) (funcArg, bool) {
	g, recv := CalledFn(v)
	switch {
	case g == nil:
		return funcArg{}, false
	case recv != nil:
		return funcArg{fn: g, args: []ssa.Value{recv}}, true
	}
	if mc, ok := stripConv(v).(*ssa.MakeClosure); ok {
		return funcArg{fn: g, bindings: mc.Bindings}, true
	}
	return funcArg{fn: g}, true
}

// calledArgs returns the func values among args, a call's arguments (the
// callee's parameters in order), that the callee, summarised by s, calls.
func calledArgs(s *Summary, args []ssa.Value) []funcArg {
	if s == nil || len(s.CallsParams) == 0 {
		return nil
	}
	var out []funcArg
	for _, i := range s.CallsParams {
		if i >= len(args) || args[i] == nil {
			continue
		}
		if fa, ok := funcArgOf(args[i]); ok {
			fa.param = i
			out = append(out, fa)
		}
	}
	return out
}

// foldArgTakes folds into s, the summary of fn, the takes of the func
// values fn hands at st to a callee (summarised by cs) that calls them,
// and reports whether s changed.
func (a *analyzer) foldArgTakes(fn *ssa.Function, s *Summary, cs *Summary, st *site) bool {
	changed := false
	for _, fa := range calledArgs(cs, st.args) {
		if g := a.summary(fa.fn); g != nil && len(g.Takes) > 0 {
			released := unionClasses(st.released, cs.ReleasedAt(fa.param))
			changed = a.foldTakes(fn, s, g.Takes, fa.args, fa.bindings, st, released) || changed
		}
	}
	return changed
}

// unionClasses returns the classes in a or b, a itself when b adds none.
func unionClasses(a, b []string) []string {
	out := a
	for _, c := range b {
		if !slices.Contains(out, c) {
			if len(out) == len(a) {
				out = slices.Clone(a)
			}
			out = append(out, c)
		}
	}
	return out
}
