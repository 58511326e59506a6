package summary

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file decides which receives from a context's Done channel cannot
// wait. A context's Done channel is closed once and stays closed, so a
// receive from it returns at once when, on every path to it, the function
// has already received from it (a receive, or the case of a select that
// took it) or has called the context's own cancel func:
//
//	select {
//	case <-s.ctx.Done():
//	case <-s.lost:
//		cancel()
//	}
//	<-s.ctx.Done() // ready: not a wait under the lock
//
// The facts are tokens naming a context (see ctxTokens), computed by a
// forward must dataflow over the function's blocks, linear in its size.

// ReadyRecv reports whether recv, a receive of function f, takes from the
// Done channel of a context that is done on every path to it, or runs only
// where a branch showed it ready (guardedRecv): such a receive does not
// block.
func (r *Result) ReadyRecv(f *Func, recv *ssa.UnOp) bool {
	if f == nil || f.Flow == nil {
		return guardedRecv(recv, nil)
	}
	return r.a.readyRecv(f.Fn, f.Flow, recv)
}

// readyRecv is ReadyRecv for the analyzer's own use (a.mu not held, or
// held by the caller).
func (a *analyzer) readyRecv(fn *ssa.Function, flow *lockstate.Result, recv *ssa.UnOp) bool {
	dead := func(b *ssa.BasicBlock) bool { return a.dyingAt(fn, b) }
	return guardedRecv(recv, dead) || a.doneReady(fn, flow, recv)
}

// doneReady reports whether recv takes from the Done channel of a context
// done on every path to it. The ready receives of a function are computed
// on first use.
func (a *analyzer) doneReady(fn *ssa.Function, flow *lockstate.Result, recv *ssa.UnOp) bool {
	if recv.Op != token.ARROW || doneCtx(recv.X) == nil {
		return false
	}
	ready, ok := a.ready[fn]
	if !ok {
		if a.ready == nil {
			a.ready = map[*ssa.Function]map[*ssa.UnOp]bool{}
		}
		d := &doneFlow{a: a, fn: fn, flow: flow, tokens: map[ssa.Value][]string{}, fragile: map[string]bool{}}
		ready = d.solve()
		a.ready[fn] = ready
	}
	return ready[recv]
}

// doneFlow is the dataflow of one function: which contexts are known done
// at each block's entry.
type doneFlow struct {
	a      *analyzer
	fn     *ssa.Function
	flow   *lockstate.Result
	tokens map[ssa.Value][]string // memoised ctxTokens and cancelTokens
	// fragile holds the tokens of contexts read from a variable or field
	// that a call of the package's code can set to another context.
	fragile map[string]bool
}

// doneSet is a sorted set of tokens of contexts known done.
type doneSet []string

// solve runs the dataflow to its fixpoint, then replays each block once
// to collect the receives that find their context done.
func (d *doneFlow) solve() map[*ssa.UnOp]bool {
	n := len(d.fn.Blocks)
	if n == 0 {
		return nil
	}
	in := make([]doneSet, n)
	seen := make([]bool, n) // in[i] is set; unseen blocks are "anything"
	queued := make([]bool, n)
	seen[0], queued[0] = true, true
	work := []int{0}
	for len(work) > 0 {
		b := d.fn.Blocks[work[0]]
		work = work[1:]
		queued[b.Index] = false
		out := d.block(b, in[b.Index], nil)
		for i, succ := range b.Succs {
			if lockstate.DeadEdge(b, i) {
				continue
			}
			e := d.edge(b, i, out)
			if seen[succ.Index] {
				e = in[succ.Index].and(e)
				if slices.Equal(e, in[succ.Index]) {
					continue
				}
			}
			in[succ.Index], seen[succ.Index] = e, true
			if !queued[succ.Index] {
				queued[succ.Index] = true
				work = append(work, succ.Index)
			}
		}
	}
	ready := map[*ssa.UnOp]bool{}
	for _, b := range d.fn.Blocks {
		if seen[b.Index] {
			d.block(b, in[b.Index], ready)
		}
	}
	return ready
}

// block applies b's instructions to s, recording in ready (when not nil)
// the receives that find their context done.
func (d *doneFlow) block(b *ssa.BasicBlock, s doneSet, ready map[*ssa.UnOp]bool) doneSet {
	for _, instr := range b.Instrs {
		if v, ok := instr.(ssa.Value); ok && len(s) > 0 {
			s = d.redefined(v, s)
		}
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.Op != token.ARROW {
				continue
			}
			if ctx := doneCtx(instr.X); ctx != nil {
				toks := d.ctxTokens(ctx)
				if ready != nil && s.hasAny(toks) {
					ready[instr] = true
				}
				s = s.with(toks)
			}
		case *ssa.Call:
			if toks := d.cancelTokens(instr); len(toks) > 0 {
				s = s.with(toks)
			} else if len(s) > 0 && runsPackageCode(d.fn, instr.Common()) {
				s = s.without(func(t string) bool { return d.fragile[t] })
			}
		case *ssa.Store:
			if len(s) > 0 {
				s = s.without(func(t string) bool { return under(t, "k:"+d.flow.IDOf(instr.Addr).Key) })
			}
		}
	}
	return s
}

// edge applies b's i'th outgoing edge to s: the edge into a select case
// that received from a context's Done channel (the select's index equals
// the case) has that receive completed.
func (d *doneFlow) edge(b *ssa.BasicBlock, i int, s doneSet) doneSet {
	if i != 0 || len(b.Instrs) == 0 {
		return s
	}
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return s
	}
	sel, k, ok := selectCase(ifi.Cond)
	if !ok || k < 0 || k >= len(sel.States) || sel.States[k].Dir != types.RecvOnly {
		return s
	}
	if ctx := doneCtx(sel.States[k].Chan); ctx != nil {
		return s.with(d.ctxTokens(ctx))
	}
	return s
}

// runsPackageCode reports whether a call can run code of fn's package,
// which may replace a context kept in a variable or a field: a call of
// the package's functions, of a func value or interface method, or of
// another package's function that is handed a func. A context's own
// methods (ctx.Done(), ctx.Err()) are not taken to.
func runsPackageCode(fn *ssa.Function, c *ssa.CallCommon) bool {
	if c.IsInvoke() && isContext(c.Value.Type()) {
		return false
	}
	callee := c.StaticCallee()
	if callee == nil {
		_, builtin := c.Value.(*ssa.Builtin)
		return !builtin
	}
	if callee.Pkg == nil || callee.Pkg == fn.Pkg {
		return true
	}
	for _, arg := range c.Args {
		if _, ok := arg.Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// selectCase recognises the branch condition "index of select sel == k".
func selectCase(cond ssa.Value) (*ssa.Select, int, bool) {
	op, ok := cond.(*ssa.BinOp)
	if !ok || op.Op != token.EQL {
		return nil, 0, false
	}
	x, y := op.X, op.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, y = y, x
	}
	ex, ok := x.(*ssa.Extract)
	c, isConst := y.(*ssa.Const)
	if !ok || !isConst || ex.Index != 0 || c.Value == nil {
		return nil, 0, false
	}
	sel, ok := ex.Tuple.(*ssa.Select)
	if !ok {
		return nil, 0, false
	}
	return sel, int(c.Int64()), true
}

// redefined drops the tokens that name v, a value being computed again
// (in a loop, a new context or a new object).
func (d *doneFlow) redefined(v ssa.Value, s doneSet) doneSet {
	root := "k:v:" + v.Name()
	if alloc, ok := v.(*ssa.Alloc); ok {
		if key := d.flow.IDOf(alloc).Key; strings.HasPrefix(key, "l:") {
			root = "k:" + key
		}
	}
	call, _ := v.(*ssa.Call)
	if call != nil && !isWithCancel(call) {
		call = nil
	}
	return s.without(func(t string) bool {
		return under(t, root) || call != nil && t == callToken(call)
	})
}

// under reports whether token t names the path root or a path below it.
func under(t, root string) bool {
	if !strings.HasPrefix(t, root) {
		return false
	}
	rest := t[len(root):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}

// hasAny reports whether s holds one of toks.
func (s doneSet) hasAny(toks []string) bool {
	for _, t := range toks {
		if _, ok := slices.BinarySearch(s, t); ok {
			return true
		}
	}
	return false
}

// with returns s with toks added, leaving s unchanged.
func (s doneSet) with(toks []string) doneSet {
	out := s
	for _, t := range toks {
		if i, ok := slices.BinarySearch(out, t); !ok {
			if len(out) == len(s) {
				out = slices.Clone(s)
			}
			out = slices.Insert(out, i, t)
		}
	}
	return out
}

// without returns s less the tokens drop selects, leaving s unchanged.
func (s doneSet) without(drop func(string) bool) doneSet {
	if !slices.ContainsFunc(s, drop) {
		return s
	}
	return slices.DeleteFunc(slices.Clone(s), drop)
}

// and returns the tokens in both s and b.
func (s doneSet) and(b doneSet) doneSet {
	var out doneSet
	for _, t := range s {
		if _, ok := slices.BinarySearch(b, t); ok {
			out = append(out, t)
		}
	}
	return out
}
