package summary

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file names contexts for readychans.go. A context value gets tokens:
//
//   - "k:" and its lockstate key: the same SSA value, or a load of the same
//     field path of the same root (two loads of s.ctx);
//   - "c:" and the context.WithCancel-family call whose first result it
//     is, found through local variables, closures' captured variables, and
//     fields of an object this frame stored that result into.
//
// A call of a cancel func yields the tokens of the context it cancels: the
// "c:" token of the call whose second result it is, or, for a cancel func
// kept in a field (s.cancel()), the "k:" token of the sibling field that
// only ever holds the paired context (s.ctx).

// doneCtx returns the context whose Done channel v is (v is ctx.Done()),
// or nil.
func doneCtx(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	c := call.Common()
	if c.IsInvoke() {
		if c.Method.Name() == "Done" && isContext(c.Value.Type()) {
			return c.Value
		}
		return nil
	}
	callee := c.StaticCallee()
	if callee == nil || callee.Name() != "Done" || callee.Signature.Recv() == nil || len(c.Args) != 1 || !isContext(c.Args[0].Type()) {
		return nil
	}
	return c.Args[0]
}

// isContext reports whether values of type t implement context.Context:
// Deadline() (time.Time, bool), Done() <-chan struct{}, Err() error and
// Value(any) any.
func isContext(t types.Type) bool {
	if isNamed(t, "context", "Context") {
		return true
	}
	ms := types.NewMethodSet(t)
	sig := func(name string, params, results int) *types.Signature {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			return nil
		}
		s, _ := sel.Type().(*types.Signature)
		if s == nil || s.Params().Len() != params || s.Results().Len() != results {
			return nil
		}
		return s
	}
	done, err := sig("Done", 0, 1), sig("Err", 0, 1)
	if done == nil || err == nil || sig("Deadline", 0, 2) == nil || sig("Value", 1, 1) == nil {
		return false
	}
	ch, ok := done.Results().At(0).Type().Underlying().(*types.Chan)
	if !ok || ch.Dir() != types.RecvOnly {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0 && types.Identical(err.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// isWithCancel reports whether call is context.WithCancel, WithCancelCause,
// WithTimeout, WithDeadline or their Cause variants: its second result
// cancels its first.
func isWithCancel(call *ssa.Call) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "context" {
		return false
	}
	switch callee.Name() {
	case "WithCancel", "WithCancelCause", "WithTimeout", "WithTimeoutCause", "WithDeadline", "WithDeadlineCause":
		return true
	}
	return false
}

// callToken is the token of the contexts a WithCancel-family call returns.
func callToken(call *ssa.Call) string {
	return "c:" + call.Parent().String() + "/" + call.Name()
}

// ctxTokens returns the sorted tokens naming the context ctx.
func (d *doneFlow) ctxTokens(ctx ssa.Value) []string {
	if toks, ok := d.tokens[ctx]; ok {
		return toks
	}
	var toks []string
	if key := d.flow.IDOf(ctx).Key; stableKey(key) {
		toks = append(toks, "k:"+key)
		d.fragile["k:"+key] = d.fragile["k:"+key] || !d.a.callProof(d.fn, ctx)
	}
	if call, i := d.a.cancelResult(d.fn, ctx); call != nil && i == 0 {
		toks = append(toks, callToken(call))
	}
	sort.Strings(toks)
	d.tokens[ctx] = toks
	return toks
}

// cancelTokens returns the sorted tokens of the context that call cancels,
// if it calls a cancel func.
func (d *doneFlow) cancelTokens(call *ssa.Call) []string {
	if toks, ok := d.tokens[call]; ok {
		return toks
	}
	var toks []string
	c := call.Common()
	if !c.IsInvoke() && len(c.Args) <= 1 {
		if wc, i := d.a.cancelResult(d.fn, c.Value); wc != nil && i == 1 {
			toks = append(toks, callToken(wc))
		}
		if ld, ok := c.Value.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if fa, ok := ld.X.(*ssa.FieldAddr); ok {
				if f := d.a.pairedCtxField(fa); f != nil {
					if key := d.flow.IDOf(fa.X).Key + "." + f.Name(); stableKey(key) {
						toks = append(toks, "k:"+key)
						d.fragile["k:"+key] = d.fragile["k:"+key] || !d.a.setAtBirth(f) || !d.a.callProof(d.fn, fa.X)
					}
				}
			}
		}
	}
	sort.Strings(toks)
	d.tokens[call] = toks
	return toks
}

// stableKey reports whether a lockstate key names one object for as long
// as the facts about it live: no index but a constant one (s.ctxs[i] names
// another context once i changes).
func stableKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if key[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(key) && key[j] >= '0' && key[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(key) || key[j] != ']' {
			return false
		}
	}
	return key != ""
}

// cancelResult returns the WithCancel-family call whose result v is, and
// which result (0 for the context, 1 for the cancel func), in the frame
// that runs fn: v is the result itself, a variable or captured variable
// holding it, or a load of a field that only ever holds that result from
// an object this frame (or a frame enclosing the closure fn) stored it
// into.
func (a *analyzer) cancelResult(fn *ssa.Function, v ssa.Value) (*ssa.Call, int) {
	_, v = throughCells(fn, v)
	if call, i := extractOf(v); call != nil {
		return call, i
	}
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, 0
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return nil, 0
	}
	s := a.ctxStoreOf(FieldVar(fa))
	if s == nil {
		return nil, 0
	}
	if _, base := throughCells(fn, fa.X); slices.Contains(s.bases, base) {
		return s.call, s.index
	}
	return nil, 0
}

// extractOf returns the WithCancel-family call whose result v is, and its
// index.
func extractOf(v ssa.Value) (*ssa.Call, int) {
	ex, ok := v.(*ssa.Extract)
	if !ok {
		return nil, 0
	}
	if call, ok := ex.Tuple.(*ssa.Call); ok && isWithCancel(call) {
		return call, ex.Index
	}
	return nil, 0
}

// throughCells follows v, a value of fn, through variables that hold one
// value for their whole life and through closures' captured variables, to
// the value it is and the function that computes it.
func throughCells(fn *ssa.Function, v ssa.Value) (*ssa.Function, ssa.Value) {
	for range 8 {
		switch x := v.(type) {
		case *ssa.FreeVar:
			pf, b := freeBinding(fn, x)
			if b == nil {
				return fn, v
			}
			fn, v = pf, b
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return fn, v
			}
			pf, addr := fn, x.X
			for range 4 { // a variable captured by nested closures
				fv, ok := addr.(*ssa.FreeVar)
				if !ok {
					break
				}
				if pf, addr = freeBinding(pf, fv); addr == nil {
					return fn, v
				}
			}
			cell, ok := addr.(*ssa.Alloc)
			if !ok {
				return fn, v
			}
			val := lockstate.SetOnce(cell)
			if val == nil {
				return fn, v
			}
			fn, v = pf, val
		case *ssa.ChangeType:
			v = x.X
		default:
			return fn, v
		}
	}
	return fn, v
}

// freeBinding returns the value that the one closure of fn binds to free
// variable fv, and the enclosing function that binds it; nil when fn is
// not a closure made in one place.
func freeBinding(fn *ssa.Function, fv *ssa.FreeVar) (*ssa.Function, ssa.Value) {
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 || fn.Parent() == nil {
		return fn, nil
	}
	mc := lockstate.MadeOnce(fn)
	if mc == nil || i >= len(mc.Bindings) {
		return fn, nil
	}
	return fn.Parent(), mc.Bindings[i]
}
