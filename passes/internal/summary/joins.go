package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// This file recognises joins with the package's own workers: a receive or
// select whose other side (the send, the close, the receive of a send
// case) is only ever in goroutines the package starts, which block only on
// channels the waiting function has already closed or signalled, and which
// do no I/O, sleep or wait, and call nothing that does:
//
//	func (k *keeper) stop() {
//		select {
//		case k.stopc <- struct{}{}: // run is always ready for this
//		case <-k.donec:
//		}
//		<-k.donec // run closes donec as it returns
//	}
//
//	close(work)       // the indexer ranges over work
//	rev := <-results  // and sends its result when work runs dry
//
// Such a wait lasts one short step of the worker, not an unbounded time:
// it blocks a caller only through the locks the workers take (a caller
// holding one of those deadlocks), so its reason is a join (Reason.Join)
// that names them.

// A chanKey identifies a channel: "class:" and the class of a field or a
// package variable, or the make that created a local channel, followed
// through closures' captures and the results of the package function that
// made it.
type chanKey any

// joinIndex is what the package's channel operations and go statements
// say, indexed once.
type joinIndex struct {
	// signals and recvs hold the sends and closes, and the receives,
	// of each channel, by key.
	signals, recvs map[chanKey][]ssa.Instruction
	// goBodies holds the functions that go statements start; openGo
	// says that a go statement starts a func value it cannot resolve.
	goBodies map[*ssa.Function]bool
	openGo   bool
	// groupDone holds the calls of a group's Go or TryGo, indexed as
	// signals of the group, with the func each starts (nil when not
	// known): that goroutine's return is the signal (groups.go).
	groupDone map[ssa.Instruction]*ssa.Function
	// afterFuncs holds the functions time.AfterFunc and
	// context.AfterFunc calls start, with those calls (afterfuncs.go).
	afterFuncs map[*ssa.Function][]*ssa.Call
	// starts holds each go statement and time.AfterFunc call, with the
	// values it hands its goroutine.
	starts []goStart
}

// A goStart is a go statement or a time.AfterFunc call: the function it
// runs (nil when not known) and the arguments and captured values it
// hands over.
type goStart struct {
	body *ssa.Function
	vals []ssa.Value
	fn   *ssa.Function // the function that starts it
}

// isBound reports whether f is the wrapper of a method value.
func isBound(f *ssa.Function) bool {
	_, _, ok := BoundMethod(f)
	return ok
}

// startOf returns the goStart of c, the call a goroutine that fn starts
// runs (for time.AfterFunc, a call of its func argument).
func (a *analyzer) startOf(fn *ssa.Function, c *ssa.CallCommon) goStart {
	vals := slices.Clone(c.Args)
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		if f, _ := mc.Fn.(*ssa.Function); f != nil && isBound(f) {
			// A method value: the method's receiver, bound, comes
			// first among its parameters.
			vals = MethodArgs(c)
		} else {
			vals = append(vals, mc.Bindings...)
		}
	}
	body := StaticCallee(c)
	if body == nil {
		body = ClosureFn(c.Value)
	}
	if body != nil {
		body = a.declared(body)
	}
	return goStart{body: body, vals: vals, fn: fn}
}

// A joinCand is a receive or select that may be a join, before the
// workers' summaries are known.
type joinCand struct {
	reason  *Reason
	instr   ssa.Instruction
	workers []*ssa.Function
	// escape is set for a select with a receive case of its own to leave
	// by (see selectEscape).
	escape bool
	// inbox, set for a hand-off to executors (see executors.go), holds
	// the keys of the channel the task goes through.
	inbox []chanKey
}

// joins returns the index, built on first use.
func (a *analyzer) joins() *joinIndex {
	if a.joinIdx != nil {
		return a.joinIdx
	}
	ix := &joinIndex{
		signals:  map[chanKey][]ssa.Instruction{},
		recvs:    map[chanKey][]ssa.Instruction{},
		goBodies: map[*ssa.Function]bool{},
	}
	a.joinIdx = ix
	for _, fn := range a.srcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if g, ok := instr.(*ssa.Go); ok {
					ix.starts = append(ix.starts, a.startOf(fn, g.Common()))
					if t := StaticCallee(g.Common()); t != nil {
						ix.goBodies[a.declared(t)] = true
					} else if t := ClosureFn(g.Common().Value); t != nil {
						ix.goBodies[t] = true
					} else {
						ix.openGo = true
					}
				}
				// time.AfterFunc and context.AfterFunc run their func on a
				// goroutine of its own.
				if c, ok := instr.(*ssa.Call); ok && isAfterFunc(c.Common()) {
					ix.starts = append(ix.starts, a.startOf(fn, &ssa.CallCommon{Value: c.Call.Args[1]}))
					if t := ClosureFn(c.Call.Args[1]); t != nil {
						ix.goBodies[a.declared(t)] = true
						ix.noteAfterFunc(a.declared(t), c)
					}
				}
			}
		}
	}
	for _, fn := range a.srcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(*ssa.Call); ok {
					a.indexGroupStart(ix, fn, c)
					a.indexStarterCall(ix, fn, c)
				}
				if c, ok := instr.(ssa.CallInstruction); ok {
					a.indexGroupDecrement(ix, fn, c) // defer wg.Add(-len(batch)) too
				}
				forChanOps(instr, func(ch ssa.Value, signal bool) {
					for _, k := range a.chanKeysOf(fn, ch) {
						if signal {
							ix.signals[k] = append(ix.signals[k], instr)
						} else {
							ix.recvs[k] = append(ix.recvs[k], instr)
						}
					}
				})
			}
		}
	}
	return ix
}

// isAfterFunc reports whether c calls time.AfterFunc or context.AfterFunc,
// which run their func (the second argument) on a goroutine of its own:
// when the timer fires, or when the context is done.
func isAfterFunc(c *ssa.CallCommon) bool {
	callee := StaticCallee(c)
	if callee == nil || len(c.Args) != 2 {
		return false
	}
	obj := FuncObject(callee)
	if obj == nil || obj.Pkg() == nil || obj.Name() != "AfterFunc" || obj.Signature().Recv() != nil {
		return false
	}
	path := obj.Pkg().Path()
	return path == "time" || path == "context"
}

// forChanOps calls f for each channel instr operates on: signal is true
// for a send or a close, false for a receive.
func forChanOps(instr ssa.Instruction, f func(ch ssa.Value, signal bool)) {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			f(instr.X, false)
		}
	case *ssa.Send:
		f(instr.Chan, true)
	case *ssa.Select:
		for _, st := range instr.States {
			f(st.Chan, st.Dir == types.SendOnly)
		}
	case ssa.CallInstruction:
		c := instr.Common()
		if isClose(c) {
			f(c.Args[0], true)
		}
		// A WaitGroup (or an errgroup.Group) is a channel of its own:
		// Done signals, Wait waits.
		if wg, done, ok := waitGroupOp(c); ok {
			f(wg, done)
		}
	}
}

// isClose reports whether c calls the builtin close.
func isClose(c *ssa.CallCommon) bool {
	b, ok := c.Value.(*ssa.Builtin)
	return ok && b.Name() == "close" && len(c.Args) == 1
}

// waitGroupOp returns the group of a call of a WaitGroup's Done (done),
// or of its Add with a negative constant (a lease ended by hand:
// wg.Add(-1) is a Done), or of a WaitGroup's or an errgroup.Group's Wait.
func waitGroupOp(c *ssa.CallCommon) (wg ssa.Value, done, ok bool) {
	g, name, ok := groupMethod(c)
	if !ok {
		return nil, false, false
	}
	switch {
	case name == "Done" && len(c.Args) == 1:
		return g, true, true
	case name == "Wait" && len(c.Args) == 1:
		return g, false, true
	case name == "Add" && len(c.Args) == 2 && negativeConst(c.Args[1]):
		return g, true, true
	}
	return nil, false, false
}

// indexGroupDecrement records a group's Add whose delta may be negative
// without being a constant (a wrapper's Add(delta) that its users, or its
// own Done, call with -1) as a signal of the group, as a Done is. A delta
// the package's callers all pass non-negative (a lazy wrapper's Add, only
// ever called with 1, or len(jobs)) is no signal.
func (a *analyzer) indexGroupDecrement(ix *joinIndex, fn *ssa.Function, c ssa.CallInstruction) {
	g, name, ok := groupMethod(c.Common())
	if !ok || name != "Add" || len(c.Common().Args) != 2 {
		return
	}
	delta := c.Common().Args[1]
	if _, isConst := delta.(*ssa.Const); isConst || !a.mayBeNegative(fn, delta, maxGroupDepth) {
		return // a constant: waitGroupOp's business
	}
	for _, k := range a.chanKeysOf(fn, g) {
		ix.signals[k] = append(ix.signals[k], c)
	}
}

// isGroupAdd reports whether instr calls a group's Add.
func isGroupAdd(instr ssa.Instruction) bool {
	c, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	_, name, ok := groupMethod(c.Common())
	return ok && name == "Add"
}

// mayBeNegative reports whether the integer v of fn may be below zero: a
// negative constant, or anything but a constant, a len or cap, a sum or
// product of such, or a parameter of a function only the package calls
// that every caller passes such.
func (a *analyzer) mayBeNegative(fn *ssa.Function, v ssa.Value, depth int) bool {
	switch x := v.(type) {
	case *ssa.Const:
		return negativeConst(x)
	case *ssa.Convert:
		return a.mayBeNegative(fn, x.X, depth)
	case *ssa.ChangeType:
		return a.mayBeNegative(fn, x.X, depth)
	case *ssa.UnOp:
		return true // -len(batch)
	case *ssa.BinOp:
		if x.Op != token.ADD && x.Op != token.MUL {
			return true
		}
		return a.mayBeNegative(fn, x.X, depth) || a.mayBeNegative(fn, x.Y, depth)
	case *ssa.Call:
		b, ok := x.Call.Value.(*ssa.Builtin)
		return !ok || b.Name() != "len" && b.Name() != "cap"
	case *ssa.Parameter:
		i := slices.Index(fn.Params, x)
		calls := a.directCalls(fn)
		if i < 0 || depth <= 0 || len(calls) == 0 {
			return true
		}
		for _, cs := range calls {
			if i >= len(cs.call.Args) || a.mayBeNegative(cs.fn, cs.call.Args[i], depth-1) {
				return true
			}
		}
		return false
	}
	return true
}

// negativeConst reports whether v is an integer constant below zero.
func negativeConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && constant.Sign(k.Value) < 0
}

// IsWaitGroupWait reports whether c calls (*sync.WaitGroup).Wait or
// (*errgroup.Group).Wait.
func IsWaitGroupWait(c *ssa.CallCommon) bool {
	_, done, ok := waitGroupOp(c)
	return ok && !done
}

// chanKeyOf returns the key of the channel v of fn, or nil, once per
// value: the index and every candidate's workers ask for the same ones.
func (a *analyzer) chanKeyOf(fn *ssa.Function, v ssa.Value) chanKey {
	if keys := a.chanKeysOf(fn, v); len(keys) == 1 {
		return keys[0]
	}
	return nil
}

// chanKeysOf returns the keys of the channels v can be: one, or, for a
// parameter of a helper the package calls with different channels (a
// goroutine body that reports on whichever channel its starter made),
// each of them.
func (a *analyzer) chanKeysOf(fn *ssa.Function, v ssa.Value) []chanKey {
	if k, ok := a.chanKeys[v]; ok {
		return k
	}
	k := a.chanKeysAt(fn, v, 3)
	if a.chanKeys == nil {
		a.chanKeys = map[ssa.Value][]chanKey{}
	}
	a.chanKeys[v] = k
	return k
}

// maxChanKeys bounds the channels one parameter is followed to.
const maxChanKeys = 8

// chanKeysAt is chanKeysOf, following parameters to the arguments of at
// most depth levels of callers.
func (a *analyzer) chanKeysAt(fn *ssa.Function, v ssa.Value, depth int) []chanKey {
	for range 8 {
		fn, v = throughCells(fn, v)
		switch x := v.(type) {
		case *ssa.MakeChan:
			return []chanKey{x}
		case *ssa.Alloc:
			if isGroup(x.Type()) {
				// A local WaitGroup or errgroup.Group: known when
				// the package sees all of its goroutines.
				if !a.groupConfined(fn, x, maxGroupDepth) {
					return nil
				}
				return []chanKey{x}
			}
		case *ssa.Extract:
			if newErrgroup(x) { // g, ctx := errgroup.WithContext(ctx)
				if !a.groupConfined(fn, x, maxGroupDepth) {
					return nil
				}
				return []chanKey{x.Tuple}
			}
			if r, g := a.returned(x.Tuple, x.Index); r != nil {
				v, fn = r, g
				continue
			}
			if m := rangedMap(x, 2); m != nil && depth > 0 { // for k, ch := range subs.chans
				return a.elemChanKeys(fn, m, depth-1)
			}
		case *ssa.Call:
			if r, g := a.returned(x, 0); r != nil {
				v, fn = r, g
				continue
			}
		case *ssa.Parameter:
			if depth > 0 {
				return a.paramChanKeys(fn, x, depth-1)
			}
		case *ssa.UnOp:
			// A channel read through a pointer parameter (a helper
			// given &r.startCh) is what its callers point it at.
			if p, ok := x.X.(*ssa.Parameter); ok && x.Op == token.MUL && depth > 0 {
				return a.paramChanKeys(fn, p, depth-1)
			}
			// A group a wrapper keeps by pointer (groups.go).
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && isGroup(x.Type()) {
				if f := FieldVar(fa); f != nil && a.groupPointerFieldConfined(fa) {
					return []chanKey{groupPointerField{f.Origin()}}
				}
				return nil
			}
		}
		break
	}
	if isGroup(v.Type()) {
		// A group kept in a field: the package's Go and Done calls on
		// the field are all of them only when no other code can reach
		// it; one reached through a pointer field is another's.
		if fa, ok := v.(*ssa.FieldAddr); !ok || !a.fieldGroupConfined(fa) {
			return nil
		}
	}
	if flow := a.flows[fn]; flow != nil {
		if c := flow.IDOf(v).Class; c != "" {
			return []chanKey{"class:" + c}
		}
	}
	return nil
}

// elemChanKeys returns the keys of the channels the package puts into the
// container m of fn (a map kept in a field: every channel any function
// stores into that field's maps); nil when one is not known, or when the
// container can hold channels the package does not make.
func (a *analyzer) elemChanKeys(fn *ssa.Function, m ssa.Value, depth int) []chanKey {
	roots, leak := a.containerRoots(fn, m, 0)
	if !leak.Closed() || len(roots) == 0 {
		return nil
	}
	return a.unionChanKeys(a.elementWrites(roots), depth)
}

// paramChanKeys returns the keys of the channels the callers pass as the
// parameter p of fn, a function only the package calls, directly (a func
// literal: the calls and go statements that run it where it is made);
// nil if one of them is not known.
func (a *analyzer) paramChanKeys(fn *ssa.Function, p *ssa.Parameter, depth int) []chanKey {
	i := slices.Index(fn.Params, p)
	if i < 0 {
		return nil
	}
	var vals []valueSite
	for _, cs := range a.directCalls(fn) {
		if i >= len(cs.call.Args) {
			return nil
		}
		vals = append(vals, valueSite{cs.fn, cs.call.Args[i]})
	}
	return a.unionChanKeys(vals, depth)
}

// unionChanKeys returns the keys of the channels the values can be, each
// once; nil when one of them is not known, or when there are more than
// maxChanKeys.
func (a *analyzer) unionChanKeys(vals []valueSite, depth int) []chanKey {
	var keys []chanKey
	for _, v := range vals {
		ks := a.chanKeysAt(v.fn, v.val, depth)
		if len(ks) == 0 {
			return nil
		}
		for _, k := range ks {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		if len(keys) > maxChanKeys {
			return nil
		}
	}
	return keys
}

// waitedOn reports whether one of the channels ch of fn can be is one the
// waiter waits on: the other side of its wait.
func (a *analyzer) waitedOn(fn *ssa.Function, ch ssa.Value, waits []chanKey) bool {
	return slices.ContainsFunc(a.chanKeysOf(fn, ch), func(k chanKey) bool { return slices.Contains(waits, k) })
}

// returned returns the value a call of a package function returns as its
// i'th result on every path, and that function.
func (a *analyzer) returned(v ssa.Value, i int) (ssa.Value, *ssa.Function) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	callee := StaticCallee(call.Common())
	if callee == nil {
		return nil, nil
	}
	callee = a.declared(callee)
	if a.funcs[callee] == nil {
		return nil, nil
	}
	var out ssa.Value
	for _, b := range callee.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		if i >= len(ret.Results) {
			return nil, nil
		}
		r := ret.Results[i]
		for {
			ct, ok := r.(*ssa.ChangeType)
			if !ok {
				break
			}
			r = ct.X
		}
		if out != nil && out != r {
			return nil, nil
		}
		out = r
	}
	return out, callee
}

// worker returns the goroutine fn runs on, as the function a go statement
// starts: fn itself; the function that runs fn, a closure only ever
// called or deferred in place, there; or, for a function only the package
// calls, the worker of its callers (a release method called only from a
// release loop). It returns nil when fn is not known to run on a
// goroutine of the package's own.
func (a *analyzer) worker(fn *ssa.Function) *ssa.Function {
	return a.workerAt(fn, 4)
}

func (a *analyzer) workerAt(fn *ssa.Function, depth int) *ssa.Function {
	ix := a.joins()
	for range 8 {
		if ix.goBodies[fn] {
			return fn
		}
		if fn.Parent() == nil {
			return a.callersWorker(fn, depth)
		}
		if mc := lockstate.MadeOnce(fn); mc == nil || !calledInPlace(mc) {
			return nil
		}
		fn = fn.Parent()
	}
	return nil
}

// callersWorker returns the worker that every direct caller of fn, a
// function other packages cannot call and that is not used as a value,
// runs on, or nil.
func (a *analyzer) callersWorker(fn *ssa.Function, depth int) *ssa.Function {
	if depth == 0 {
		return nil
	}
	sites := a.directCalls(fn)
	if len(sites) == 0 {
		return nil
	}
	var w *ssa.Function
	for _, cs := range sites {
		if _, isGo := cs.instr.(*ssa.Go); isGo {
			return nil // started elsewhere too: not one worker
		}
		cw := a.workerAt(cs.fn, depth-1)
		if cw == nil || w != nil && cw != w {
			return nil
		}
		w = cw
	}
	return w
}

// joinCandidate returns, for a receive, send or blocking select of fn, the
// workers it joins when it may be a join: every other side of each of its
// channels is on a goroutine the package starts, and each of those
// workers blocks only where fn has signalled it first. Whether the
// workers' steps are short is decided once their summaries are known
// (quickWorker). escape reports a select that can also leave by a receive
// case of its own (selectEscape).
func (a *analyzer) joinCandidate(fn *ssa.Function, instr ssa.Instruction) (workers []*ssa.Function, escape bool) {
	if ws := a.closerJoin(fn, instr); ws != nil {
		return ws, false
	}
	if sel, ok := instr.(*ssa.Select); ok {
		return a.selectJoin(fn, sel)
	}
	var waits []chanKey // the channels instr waits on
	ok := true
	forChanOps(instr, func(ch ssa.Value, signal bool) {
		keys := a.chanKeysOf(fn, ch)
		ws := a.sidesWorkers(fn, keys, signal)
		if len(ws) == 0 {
			ok = false
			return
		}
		waits = append(waits, keys...)
		workers = addWorkers(workers, ws)
	})
	if !ok || len(workers) == 0 || !a.waitOnlyFor(fn, instr, workers, waits) {
		return nil, false
	}
	return workers, false
}

// sideWorkers returns the workers on the other side of the channel k that
// an operation of fn waits on (its sends and closes for a receive, its
// receives for a send, signal): nil when k is not known, when there is no
// other side, or when one of them is not on a goroutine the package starts
// (or is fn itself). For a wait outside _test.go files, the other sides in
// them are left out.
func (a *analyzer) sideWorkers(fn *ssa.Function, k chanKey, signal bool) []*ssa.Function {
	if k == nil {
		return nil
	}
	ix := a.joins()
	others := ix.signals[k] // the other side of a receive
	if signal {
		others = ix.recvs[k]
	}
	var ws []*ssa.Function
	shipped := !srcname.InTest(a.pass.Fset, fn.Pos())
	for _, o := range others {
		if shipped && srcname.InTest(a.pass.Fset, o.Pos()) {
			// A test driving the package's objects by hand (a
			// benchmark marking its own group done) decides nothing
			// about the waits of code that ships.
			continue
		}
		if o.Parent() == fn && isGroupAdd(o) {
			continue // the waiter's own wg.Add(n-1) before it forks
		}
		w, started := ix.groupDone[o]
		if !started {
			w = a.worker(o.Parent())
		}
		if w == nil || w == fn {
			return nil
		}
		ws = addWorkers(ws, []*ssa.Function{w})
	}
	return ws
}

// sidesWorkers is sideWorkers for a channel that can be any of keys (a
// helper's parameter its callers point at different inboxes): the
// workers on the other side of each, nil when one has none.
func (a *analyzer) sidesWorkers(fn *ssa.Function, keys []chanKey, signal bool) []*ssa.Function {
	var ws []*ssa.Function
	for _, k := range keys {
		w := a.sideWorkers(fn, k, signal)
		if len(w) == 0 {
			return nil
		}
		ws = addWorkers(ws, w)
	}
	return ws
}

// addWorkers adds to workers those of ws it does not hold yet.
func addWorkers(workers, ws []*ssa.Function) []*ssa.Function {
	for _, w := range ws {
		if !slices.Contains(workers, w) {
			workers = append(workers, w)
		}
	}
	return workers
}

// waitOnlyFor reports whether each of the workers blocks only where fn has
// signalled it before instr, or on the channels instr waits on (waits).
func (a *analyzer) waitOnlyFor(fn *ssa.Function, instr ssa.Instruction, workers []*ssa.Function, waits []chanKey) bool {
	if !a.afterFuncsStarted(fn, instr, workers) {
		return false // a timer's or a context's func may not have begun
	}
	signalled := a.signalledBefore(fn, instr)
	for _, w := range workers {
		if !a.waitsOnlyFor(w, signalled, waits) {
			return false
		}
	}
	return true
}

// selectJoin is joinCandidate for a blocking select: one case whose other
// side is only the package's workers, ready for it, is enough, whatever
// the other cases wait for (select { case s.pubch <- a: case
// <-s.ctx.Done(): } with a pump goroutine that always receives from
// pubch).
func (a *analyzer) selectJoin(fn *ssa.Function, sel *ssa.Select) (workers []*ssa.Function, escape bool) {
	var waits []chanKey // the joined cases' channels
	for _, st := range sel.States {
		keys := a.chanKeysOf(fn, st.Chan)
		if ws := a.sidesWorkers(fn, keys, st.Dir == types.SendOnly); len(ws) > 0 {
			waits = append(waits, keys...)
			workers = addWorkers(workers, ws)
		}
	}
	if len(workers) == 0 || !a.waitOnlyFor(fn, sel, workers, waits) {
		return nil, false
	}
	return workers, a.selectEscape(fn, sel, waits)
}

// selectEscape reports whether sel has a receive case besides its joined
// channels (a quit channel, a context's Done): a worker that leaves its
// loop, and takes a lock on its way out, does so once that shutdown has
// come, and the waiter leaves through that case.
func (a *analyzer) selectEscape(fn *ssa.Function, sel *ssa.Select, joined []chanKey) bool {
	for _, st := range sel.States {
		if st.Dir == types.RecvOnly && !a.waitedOn(fn, st.Chan, joined) {
			return true
		}
	}
	return false
}

// signals lists the channels a waiter has signalled: closed, or sent one
// value on.
type signals struct{ closed, sent []chanKey }

// signalledBefore returns the channels fn closes or sends on before instr
// (on some path), or in instr itself (a select's send case).
func (a *analyzer) signalledBefore(fn *ssa.Function, instr ssa.Instruction) signals {
	var out signals
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			forChanOps(x, func(ch ssa.Value, signal bool) {
				if !signal || !Precedes(x, instr) {
					return
				}
				if ex, ok := ch.(*ssa.Extract); ok && rangedMap(ex, 2) != nil {
					// close(ch) for each ch of a map, in the block that
					// reads it, closes all its channels; a close of
					// some of them (under a branch), none for sure.
					if _, closes := x.(ssa.CallInstruction); closes && ex.Block() == x.Block() {
						out.closed = append(out.closed, a.chanKeysOf(fn, ch)...)
					}
					return
				}
				if k := a.chanKeyOf(fn, ch); k == nil {
					return
				} else if _, closes := x.(ssa.CallInstruction); closes {
					out.closed = append(out.closed, k)
				} else {
					out.sent = append(out.sent, k)
				}
			})
		}
	}
	return out
}

// ready reports whether a receive from k finds a value or a close: a
// loop that receives until the channel is closed (range, v, ok := <-ch)
// needs the close, a single receive any signal.
func (s signals) ready(k chanKey, untilClosed bool) bool {
	return k != nil && (slices.Contains(s.closed, k) || !untilClosed && slices.Contains(s.sent, k))
}

// waitsOnlyFor reports whether every channel operation of the worker w
// (and of the closures it runs in place) that can block is ready once the
// waiter has signalled the channels signalled: each receive or blocking
// select has a receive from one of them, and each send goes to a
// buffered channel; an operation on a channel the waiter waits on (waits)
// is the other side of the wait.
func (a *analyzer) waitsOnlyFor(w *ssa.Function, signalled signals, waits []chanKey) bool {
	for _, fn := range a.family(w) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if !a.readyAfter(fn, instr, signalled, waits) {
					return false
				}
			}
		}
	}
	return true
}

// readyAfter reports whether instr of fn, part of a worker, cannot wait
// once the waiter has signalled the channels signalled.
func (a *analyzer) readyAfter(fn *ssa.Function, instr ssa.Instruction, signalled signals, waits []chanKey) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			// A receive is ready once signalled, or is the one the
			// waiter's send waits for.
			return signalled.ready(a.chanKeyOf(fn, instr.X), instr.CommaOk) || a.waitedOn(fn, instr.X, waits)
		}
	case *ssa.Select:
		if !instr.Blocking {
			return true
		}
		for _, st := range instr.States {
			if a.waitedOn(fn, st.Chan, waits) || st.Dir == types.RecvOnly && signalled.ready(a.chanKeyOf(fn, st.Chan), false) {
				return true
			}
		}
		return false
	case *ssa.Send:
		if flow := a.flows[fn]; flow != nil && a.res.BufferedSend(flow, instr.Chan) || a.bufferedElem(fn, instr.Chan) {
			return true
		}
		k := a.chanKeyOf(fn, instr.Chan)
		if mc, ok := k.(*ssa.MakeChan); ok && constCap(mc) {
			return true // a captured channel made with a capacity
		}
		return a.waitedOn(fn, instr.Chan, waits)
	}
	return true
}

// family returns w and the closures it runs in place, recursively.
func (a *analyzer) family(w *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{w}
	for i := 0; i < len(out) && i < 32; i++ {
		for _, af := range out[i].AnonFuncs {
			if mc := lockstate.MadeOnce(af); mc != nil && calledInPlace(mc) {
				out = append(out, af)
			}
		}
	}
	return out
}

// quickWorker reports whether the worker w, whose channel operations are
// known to be ready (waitsOnlyFor), does nothing else that can wait: no
// I/O, sleep or wait of its own, no callee that may block, no code of
// open origin.
func (a *analyzer) quickWorker(w *ssa.Function, locals map[*ssa.Function]*local) bool {
	if q, ok := a.quick[w]; ok {
		return q
	}
	// A quiet package's summaries do not say what blocks (runtime/pprof's
	// writer goroutine writes the profile to the caller's io.Writer): its
	// workers cannot be shown quick.
	q := !a.quiet
	fam := a.family(w)
	for _, fn := range fam {
		l := locals[fn]
		if l == nil || l.callback != nil || l.unknown != nil {
			q = false
			break
		}
		// A func value the worker hands to a helper that calls it: code
		// the package's users supply (the summary's callback), or the
		// package's own, which must be quick too.
		fs := a.funcs[fn].Summary
		if fs.Callback != nil || fs.Unknown != nil || !a.quickFuncArgs(fn, l) {
			q = false
			break
		}
		// A func value the worker is started with and calls: what
		// each go statement hands it.
		if fn == w && len(fs.CallsParams) > 0 && !a.quickStartArgs(w, fs.CallsParams) {
			q = false
			break
		}
		for _, r := range l.blocks.Blocks {
			if len(r.Chain) != 2 || r.strength() > 0 {
				q = false // a sleep, I/O or a wait of its own
			}
		}
		for _, st := range l.sites {
			if st.callee != nil && slices.Contains(fam, st.callee) {
				continue
			}
			if s := a.siteSummary(st); s != nil && !quickSummary(s) {
				q = false
			}
		}
	}
	a.quick[w] = q
	return q
}

// quickFuncArgs reports whether the func values fn hands to callees that
// call them run nothing that waits: each resolves to functions of the
// package whose summaries hold no wait but a free join, no callback and
// no unknown code.
func (a *analyzer) quickFuncArgs(fn *ssa.Function, l *local) bool {
	for _, st := range l.sites {
		if st.callee == nil {
			continue
		}
		cs := a.res.SummaryOf(st.callee)
		if cs == nil || len(cs.CallsParams) == 0 {
			continue
		}
		for i, arg := range st.args {
			if arg != nil && cs.CallsParam(i) && !a.quickFunc(fn, arg) {
				return false
			}
		}
	}
	return true
}

// quickStartArgs reports whether the func values the worker w is started
// with, as the parameters params it calls, are the package's own and
// quick (see quickFunc): at each start of w that the package makes, and
// there is one.
func (a *analyzer) quickStartArgs(w *ssa.Function, params []int) bool {
	found := false
	for _, st := range a.joins().starts {
		if st.body != w {
			continue
		}
		found = true
		for _, i := range params {
			if i >= len(st.vals) || st.fn == nil || !a.quickFunc(st.fn, st.vals[i]) {
				return false
			}
		}
	}
	return found
}

// quickFunc reports whether the func value v of fn is the package's own
// code and runs nothing that waits: each function it can be has a summary
// with no wait but a free join, no callback and no unknown code.
func (a *analyzer) quickFunc(fn *ssa.Function, v ssa.Value) bool {
	if _, ok := v.(*ssa.Parameter); ok {
		return false // the caller of fn decides
	}
	o := a.origin(fn, v, 0)
	if !o.Closed() {
		return false
	}
	for _, g := range o.Targets {
		gs := a.summary(g)
		if gs == nil || !quickSummary(gs) {
			return false
		}
	}
	return true
}

// quickSummary reports whether a function the worker runs waits for
// nothing but nestable joins (onlyNestableJoins) and runs no callback and
// no unknown code.
func quickSummary(s *Summary) bool {
	return onlyNestableJoins(s.Blocks) && s.Callback == nil && s.Unknown == nil
}

// onlyNestableJoins reports whether every block reason of a worker's
// callee is a join with quick workers: a fork-join nested in the worker
// (a hash that compresses its chunks on goroutines of its own and waits
// for them, a tree hashed by a worker per subtree that returns its buffer
// to a shared pool) lasts a short step. The outer join names the nested
// workers' locks too (nestedJoinTakes), so a caller holding one of them
// still waits. A join whose workers take a lock with no class that is not
// their forker's own is no join at all (unnamedLocks), so it does not nest.
func onlyNestableJoins(blocks []*Reason) bool {
	for _, r := range blocks {
		if !r.Join {
			return false
		}
	}
	return true
}

// unnamedLocks reports whether the worker w, or a closure it runs in
// place, takes a lock with no class that is not the forker's own: a mutex
// handed in by pointer, returned by an accessor (c.locker()), looked up in
// a lock table, or set on one branch or another. A caller of fn, the
// function that waits for w at instr, could hold such a lock, and
// JoinTakes could not name it, so the wait is no join: it is reported as
// the wait it is. A mutex fn itself declares and does not hold at the
// wait (the one a parallel hash collects its chunks' sums under) is no
// caller's (forkerLock).
func (a *analyzer) unnamedLocks(w, fn *ssa.Function, instr ssa.Instruction) bool {
	if s := a.funcs[w].Summary; slices.ContainsFunc(s.Takes, func(e lockstate.Effect) bool { return a.unnamedTake(w, e, fn, instr) }) {
		return true
	}
	for _, g := range a.family(w) {
		flow := a.flows[g]
		if flow == nil {
			continue
		}
		for _, b := range g.Blocks {
			for _, in := range b.Instrs {
				c, ok := in.(ssa.CallInstruction)
				if !ok {
					continue
				}
				op := lockstate.OpOf(c.Common())
				if op.Kind != lockstate.Acquire && op.Kind != lockstate.TryAcq {
					continue
				}
				id := flow.IDOf(op.Recv)
				if id.Class == "" && !a.forkerLock(g, op.Recv, fn, instr) {
					return true
				}
				// A lock reached through a pointer or Locker field that
				// the package sets to more than one lock, or to one it
				// cannot name: JoinTakes names the field, not the lock.
				if id.Class != "" && loadedLockField(op.Recv) && a.storedLock(id.Class) == "" {
					return true
				}
			}
		}
	}
	return false
}

// loadedLockField reports whether the lock v is loaded from a field that
// holds a pointer to a lock or a sync.Locker: the field aliases a lock
// kept elsewhere.
func loadedLockField(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	if _, ok := load.X.(*ssa.FieldAddr); !ok {
		return false
	}
	if _, isIface := load.Type().Underlying().(*types.Interface); isIface {
		return true
	}
	return lockPointer(load.Type())
}

// unnamedTake reports whether the worker w's take e is of a lock with no
// class that is not fn's own (see unnamedLocks).
func (a *analyzer) unnamedTake(w *ssa.Function, e lockstate.Effect, fn *ssa.Function, instr ssa.Instruction) bool {
	if e.Lock.Class != "" {
		return false
	}
	if e.Lock.Root != lockstate.RootFree || e.Lock.Path != "" {
		return true
	}
	mc := lockstate.MadeOnce(w)
	if mc == nil || e.Lock.RootIndex >= len(mc.Bindings) {
		return true
	}
	return !a.forkerLock(mc.Parent(), mc.Bindings[e.Lock.RootIndex], fn, instr)
}

// forkerLock reports whether the lock v of g is a mutex variable that the
// forking function fn declares (var mu sync.Mutex), reached through the
// variables closures capture, and that fn does not hold at its wait
// instr: no caller of fn can hold it, and fn does not wait with it.
func (a *analyzer) forkerLock(g *ssa.Function, v ssa.Value, fn *ssa.Function, instr ssa.Instruction) bool {
	for range 4 {
		switch x := v.(type) {
		case *ssa.Alloc:
			if g != fn || !lockstate.IsLockType(x.Type()) {
				return false
			}
			flow := a.flows[fn]
			if flow == nil {
				return false
			}
			ev, ok := flow.EventAt(instr)
			if !ok {
				return true // no lock is held at the wait
			}
			key := flow.IDOf(x).Key
			return !slices.ContainsFunc(ev.State.Held, func(h lockstate.Held) bool { return h.Key == key })
		case *ssa.FreeVar:
			i := slices.Index(g.FreeVars, x)
			mc := lockstate.MadeOnce(g)
			if i < 0 || mc == nil || i >= len(mc.Bindings) {
				return false
			}
			g, v = mc.Parent(), mc.Bindings[i]
			continue
		}
		return false
	}
	return false
}

// nestedJoinTakes returns the lock classes that the joins nested in worker
// w wait on: the JoinTakes of the join reasons in the summaries of w, of
// the closures it runs in place, and of the functions they call.
func (a *analyzer) nestedJoinTakes(w *ssa.Function, locals map[*ssa.Function]*local) []string {
	var out []string
	add := func(s *Summary) {
		if s == nil {
			return
		}
		for _, r := range s.Blocks {
			if r.Join {
				for _, c := range r.JoinTakes {
					out = addClass(out, c)
				}
			}
		}
	}
	for _, fn := range a.family(w) {
		if f := a.funcs[fn]; f != nil {
			add(f.Summary)
		}
		l := locals[fn]
		if l == nil {
			continue
		}
		for _, st := range l.sites {
			add(a.siteSummary(st))
		}
	}
	return out
}

// siteSummary returns the summary of the function a call site calls: the
// package's own or another package's (its fact), or nil when not known.
func (a *analyzer) siteSummary(st site) *Summary {
	switch {
	case st.callee != nil:
		return a.res.SummaryOf(st.callee)
	case st.method != nil:
		return a.summaryOfObj(st.method)
	}
	return nil
}

// decideJoins turns the join candidates of fn into block reasons, now that
// the workers' summaries are known: a join naming the locks the workers
// take, or the plain reason. It reports whether fn's summary changed.
func (a *analyzer) decideJoins(fn *ssa.Function, l *local, locals map[*ssa.Function]*local) bool {
	s := a.funcs[fn].Summary
	changed := false
	for _, jc := range l.joins {
		// Joins are decided again on each pass (propagate.go): the
		// candidate's reason stays as scanned.
		rc := *jc.reason
		r := &rc
		if jc.inbox != nil {
			if a.decideExecutor(s, jc) {
				changed = true
			}
			continue
		}
		quick := true
		var takes []string
		for _, w := range jc.workers {
			if !a.quickWorker(w, locals) || a.unnamedLocks(w, fn, jc.instr) {
				quick = false
				break
			}
			ws := a.funcs[w].Summary
			acquires := ws.Acquires
			if jc.escape {
				acquires = a.loopAcquires(w)
			}
			acquires = append(slices.Clip(acquires), a.nestedJoinTakes(w, locals)...)
			for _, c := range acquires {
				takes = addClass(takes, c)
				// A lock reached through a pointer field is the
				// lock the field is always set to.
				class, read := strings.CutSuffix(c, " (read)")
				if stored := a.storedLock(class); stored != "" {
					mode := lockstate.Write
					if read {
						mode = lockstate.Read
					}
					takes = addClass(takes, acquireClass(stored, mode))
				}
			}
		}
		if quick {
			r.Join, r.JoinTakes = true, takes
			if a.joinTakes == nil {
				a.joinTakes = map[ssa.Instruction][]string{}
			}
			a.joinTakes[jc.instr] = takes
		} else {
			delete(a.joinTakes, jc.instr)
		}
		if !a.quiet && s.addBlock(r) {
			changed = true
		}
	}
	return changed
}

// loopAcquires returns the lock classes worker w takes where it can still
// come back to one of its waits: not on the way out of its loop (a pump
// that unregisters itself under its manager's lock, then returns). The
// closures it runs in place count whole.
func (a *analyzer) loopAcquires(w *ssa.Function) []string {
	var out []string
	add := func(classes []string) {
		for _, c := range classes {
			out = addClass(out, c)
		}
	}
	for _, fn := range a.family(w)[1:] {
		if f := a.funcs[fn]; f != nil {
			add(f.Summary.Acquires)
		}
	}
	flow := a.flows[w]
	inLoop := loopBlocks(w)
	for _, b := range w.Blocks {
		if !inLoop[b] {
			continue // on the way out
		}
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op := lockstate.OpOf(c.Common()); op.Kind == lockstate.Acquire || op.Kind == lockstate.TryAcq {
				if flow == nil {
					return a.funcs[w].Summary.Acquires
				}
				if class := acquireClass(flow.IDOf(op.Recv).Class, op.Mode); class != "" {
					out = addClass(out, class)
				}
				continue
			}
			var sum *Summary
			if callee := StaticCallee(c.Common()); callee != nil {
				sum = a.res.SummaryOf(callee)
			} else if c.Common().IsInvoke() {
				sum = a.summaryOfObj(c.Common().Method)
			}
			if sum != nil {
				add(sum.Acquires)
			}
		}
	}
	return out
}

// loopBlocks returns the blocks of the worker w from which it can come
// back to one of its waits (a receive or a blocking select): its loop,
// not its way out.
func loopBlocks(w *ssa.Function) map[*ssa.BasicBlock]bool {
	waits := map[*ssa.BasicBlock]bool{}
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Select:
				waits[b] = waits[b] || x.Blocking
			case *ssa.UnOp:
				waits[b] = waits[b] || x.Op == token.ARROW
			}
		}
	}
	return reaching(waits)
}

// reaching returns the blocks from which a path reaches one of targets
// (the targets included): a walk back along predecessors, linear in the
// function's size.
func reaching(targets map[*ssa.BasicBlock]bool) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	var stack []*ssa.BasicBlock
	for b, ok := range targets {
		if ok {
			stack = append(stack, b)
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if out[x] {
			continue
		}
		out[x] = true
		stack = append(stack, x.Preds...)
	}
	return out
}

func addClass(classes []string, c string) []string {
	if slices.Contains(classes, c) {
		return classes
	}
	return append(classes, c)
}

// storedLock returns the lock class a pointer field of lock class field
// is always set to, or "". The package's stores of lock pointers are
// indexed by the class of the field they store into once, on first use:
// asking storedLockClass per class walked every store of the package for
// each.
func (a *analyzer) storedLock(field string) string {
	if c, ok := a.stored[field]; ok {
		return c
	}
	if a.stored == nil {
		a.stored = map[string]string{}
		a.lockStores = map[string][]lockStore{}
		forEachStore(a.srcFuncs, a.flows, func(flow *lockstate.Result, st *ssa.Store) {
			if !lockPointer(st.Val.Type()) {
				return
			}
			if f := flow.IDOf(st.Addr).Class; f != "" {
				a.lockStores[f] = append(a.lockStores[f], lockStore{flow.Fn, st.Val})
			}
		})
	}
	class := ""
	for _, ls := range a.lockStores[field] {
		c := a.lockClassOf(ls.fn, ls.val, 0)
		if c == "" || class != "" && c != class {
			class = ""
			break
		}
		class = c
	}
	a.stored[field] = class
	return class
}

// A lockStore is a lock pointer stored into a field, and where.
type lockStore struct {
	fn  *ssa.Function
	val ssa.Value
}

// lockPointer reports whether t is a pointer to a sync.Mutex or
// sync.RWMutex.
func lockPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

// JoinAt reports whether the receive or select instr is a join with the
// package's own workers, and the lock classes they take ("class (read)"
// for a read lock): only a caller holding one of those waits on them.
func (r *Result) JoinAt(instr ssa.Instruction) ([]string, bool) {
	takes, ok := r.a.joinTakes[instr]
	return takes, ok
}

// JoinBlocked returns the locks of held that a join whose workers take the
// lock classes takes waits on: a worker that needs a held lock cannot
// finish its step. Readers do not wait for readers.
func JoinBlocked(held []lockstate.Held, takes []string) []lockstate.Held {
	var out []lockstate.Held
	for _, h := range held {
		for _, t := range takes {
			class, read := t, false
			if c, ok := strings.CutSuffix(t, " (read)"); ok {
				class, read = c, true
			}
			if h.Class == class && (!read || h.Mode != lockstate.Read) { // readers do not wait for readers
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// closerJoin returns, for a receive of fn from a channel that only closes
// signal and that fn itself closes on its other paths, the functions that
// close it: a closer that finds the channel claimed waits for the first
// closer to finish ("if already done, wait for the first"). The wait lasts
// the rest of that closer when it is quick (decided by decideJoins, as for
// workers), and deadlocks only under a lock it takes.
func (a *analyzer) closerJoin(fn *ssa.Function, instr ssa.Instruction) []*ssa.Function {
	recv, ok := instr.(*ssa.UnOp)
	if !ok || recv.Op != token.ARROW {
		return nil
	}
	k := a.chanKeyOf(fn, recv.X)
	if k == nil {
		return nil
	}
	fam := a.family(fn)
	self := false
	var closers []*ssa.Function
	for _, o := range a.joins().signals[k] {
		c, ok := o.(ssa.CallInstruction)
		if !ok {
			return nil // a send: the wait is for a value, not a closer
		}
		if !isClose(c.Common()) {
			return nil
		}
		closer := o.Parent()
		if slices.Contains(fam, closer) {
			if Precedes(instr, o) {
				return nil // fn receives before closing: not the second closer
			}
			self, closer = true, fn
		}
		if !slices.Contains(closers, closer) {
			closers = append(closers, closer)
		}
	}
	if !self || !a.afterFuncsStarted(fn, instr, closers) {
		return nil
	}
	signalled := a.signalledBefore(fn, instr)
	for _, w := range closers {
		if !a.waitsOnlyFor(w, signalled, []chanKey{k}) {
			return nil
		}
	}
	return closers
}
