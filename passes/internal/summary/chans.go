package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// bufferedChans finds the channel classes (fields and package variables)
// that the package only ever creates with a capacity, and, keyed by "type "
// and the channel type, the channel types of the package's own element
// types that it only ever makes with a capacity: a channel kept in a map or
// a set and taken out again has lost its class, not its type. queues
// holds the classes the package only ever makes with room for at least
// minQueueCap values.
func (a *analyzer) bufferedChans(funcs []*ssa.Function, flows map[*ssa.Function]*lockstate.Result) (buffered, queues map[string]bool) {
	buffered, queues = map[string]bool{}, map[string]bool{}
	unbuffered := map[string]bool{}
	a.configCap = map[string]bool{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mc, ok := instr.(*ssa.MakeChan)
				if !ok || !ownElem(fn, mc.Type()) || madeByTest(a.pass.Fset, mc) {
					continue
				}
				key := chanTypeKey(mc.Type())
				if configuredCap(mc) {
					a.configCap[key] = true
				}
				if constCap(mc) {
					buffered[key] = true
				} else {
					unbuffered[key] = true
				}
			}
		}
	}
	forEachStore(funcs, flows, func(flow *lockstate.Result, st *ssa.Store) {
		val := st.Val
		if ct, ok := val.(*ssa.ChangeType); ok {
			val = ct.X // make(chan error, 1) kept in a chan<- error field
		}
		mc, ok := val.(*ssa.MakeChan)
		if !ok || madeByTest(a.pass.Fset, mc) {
			return
		}
		class := flow.IDOf(st.Addr).Class
		if class == "" {
			return
		}
		if configuredCap(mc) {
			a.configCap[class] = true
		}
		if constCap(mc) {
			buffered[class] = true
		} else {
			unbuffered[class] = true
		}
		if q, seen := queues[class]; q || !seen {
			queues[class] = a.queueCap(mc)
		}
	})
	for class := range unbuffered {
		delete(buffered, class)
	}
	for class, q := range queues {
		if !q {
			delete(queues, class)
		}
	}
	return buffered, queues
}

// madeByTest reports whether mc lies in a _test.go file. A test that
// makes the package's channels its own way (unbuffered, to drive a
// connection-request set by hand: database/sql) does not decide what the
// production code's channels hold; only the test variant would see it,
// and its findings in the package's own files would hold for no build
// that ships.
func madeByTest(fset *token.FileSet, mc *ssa.MakeChan) bool {
	return srcname.InTest(fset, mc.Pos())
}

// minQueueCap is the capacity from which a buffer is a queue that never
// fills in practice (database/sql's connection requests, 1,000,000): it
// is sized to hold any backlog, not to a protocol between its sides.
const minQueueCap = 1 << 16

// queueCap reports whether a channel is made with a capacity of at least
// minQueueCap: a constant, or a package variable that only tests change
// (database/sql's connectionRequestQueueSize).
func (a *analyzer) queueCap(mc *ssa.MakeChan) bool {
	size := mc.Size
	if load, ok := size.(*ssa.UnOp); ok && load.Op == token.MUL {
		if g, ok := load.X.(*ssa.Global); ok {
			vals, ok := a.globalValues(g)
			for _, v := range vals {
				ok = ok && atLeastQueue(v)
			}
			return ok && len(vals) > 0
		}
	}
	return atLeastQueue(size)
}

// atLeastQueue reports whether v is an integer constant of at least
// minQueueCap.
func atLeastQueue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, exact := constant.Int64Val(c.Value)
	return !exact || n >= minQueueCap
}

// QueueSend reports whether a send on ch, a channel value of flow's
// function, goes into a channel of a class the package only makes with
// room for at least minQueueCap values: it does not wait, whoever
// receives.
func (r *Result) QueueSend(flow *lockstate.Result, ch ssa.Value) bool {
	if mc, ok := ch.(*ssa.MakeChan); ok {
		return r.a.queueCap(mc)
	}
	class := flow.IDOf(ch).Class
	return class != "" && r.a.queues[class]
}

// forEachStore calls f for every store instruction of the functions that
// have a lock-state result.
func forEachStore(funcs []*ssa.Function, flows map[*ssa.Function]*lockstate.Result, f func(*lockstate.Result, *ssa.Store)) {
	for _, fn := range funcs {
		flow := flows[fn]
		if flow == nil {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					f(flow, st)
				}
			}
		}
	}
}

// constCap reports whether a channel is made with a capacity: any size
// other than a constant zero (make(chan T) has a constant zero size). A
// capacity written as a variable (a queue size from configuration) states
// the same intent as a constant.
func constCap(mc *ssa.MakeChan) bool {
	c, ok := mc.Size.(*ssa.Const)
	if !ok {
		return true
	}
	if c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, exact := constant.Int64Val(c.Value)
	return !exact || n > 0
}

// BufferedSend reports whether a send on ch, a channel value of fn, goes to a
// channel created with a capacity: such sends are the package's
// deliberate non-blocking hand-offs (a result slot, a wake-up token), not
// waits under a lock.
func (r *Result) BufferedSend(flow *lockstate.Result, ch ssa.Value) bool {
	if catalog.HandOff(ch.Type()) {
		return true // a framework's channel, drained while the callback runs
	}
	for {
		switch v := ch.(type) {
		case *ssa.MakeChan:
			return constCap(v)
		case *ssa.ChangeType:
			ch = v.X
			continue
		case *ssa.UnOp:
			// A variable set once: the parent's c := make(chan T, 1)
			// that a closure captures.
			cell := v.X
			if fv, ok := cell.(*ssa.FreeVar); ok && v.Op == token.MUL {
				_, cell = freeBinding(fv.Parent(), fv)
			}
			if alloc, ok := cell.(*ssa.Alloc); ok && v.Op == token.MUL {
				if val := lockstate.SetOnce(alloc); val != nil {
					ch = val
					continue
				}
			}
		}
		break
	}
	return chanIn(r.a.buffered, flow, ch)
}

// chanTypeKey is the key of bufferedChans' maps for the channels of type
// t that the package makes of its own element types.
func chanTypeKey(t types.Type) string {
	return "type " + types.TypeString(types.Unalias(t).Underlying(), nil)
}

// chanIn reports whether set, one of bufferedChans' maps, holds the class
// of ch, a channel value of flow's function, or its type's key.
func chanIn(set map[string]bool, flow *lockstate.Result, ch ssa.Value) bool {
	if class := flow.IDOf(ch).Class; class != "" && set[class] {
		return true
	}
	return set[chanTypeKey(ch.Type())]
}

// BufferedCase returns the channel of a send case of sel that goes into a
// channel made with a capacity (BufferedSend, BufferedElemSend), or nil. A
// select that can put its value into a buffer waits no longer than the
// plain send would, whatever its other cases: notifying a subscriber's
// one-slot channel, with a way out on quit, is the same hand-off as the
// plain send.
func (r *Result) BufferedCase(flow *lockstate.Result, sel *ssa.Select) ssa.Value {
	return r.a.bufferedCase(sel.Parent(), flow, sel)
}

// bufferedCase is BufferedCase, decided once per select: the summaries
// ask when they scan the function, heldcall again at the call site.
func (a *analyzer) bufferedCase(fn *ssa.Function, flow *lockstate.Result, sel *ssa.Select) ssa.Value {
	if ch, ok := a.selectCases[sel]; ok {
		return ch
	}
	ch := a.findBufferedCase(fn, flow, sel)
	if a.selectCases == nil {
		a.selectCases = map[*ssa.Select]ssa.Value{}
	}
	a.selectCases[sel] = ch
	return ch
}

func (a *analyzer) findBufferedCase(fn *ssa.Function, flow *lockstate.Result, sel *ssa.Select) ssa.Value {
	if timedSelect(sel) {
		return nil // the author bounds a wait the buffer does not rule out
	}
	for _, st := range sel.States {
		if st.Dir != types.SendOnly || tokenChan(st.Chan.Type()) || a.configuredChan(flow, st.Chan) {
			continue
		}
		if a.res.BufferedSend(flow, st.Chan) || a.bufferedElem(fn, st.Chan) {
			return st.Chan
		}
	}
	return nil
}

// timedSelect reports whether a case of sel receives from a timer: a
// channel of time.Time (time.After, a Timer's or a Ticker's C, a fake
// clock's After). A send that gives up after a timeout is one whose
// author expects the buffer to fill (a watch stream's 50 ms post).
func timedSelect(sel *ssa.Select) bool {
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if ch, ok := st.Chan.Type().Underlying().(*types.Chan); ok && isTime(ch.Elem()) {
			return true
		}
	}
	return false
}

// isTime reports whether t is time.Time.
func isTime(t types.Type) bool { return isNamed(t, "time", "Time") }

// configuredChan reports whether the channel ch may be made with a
// capacity read from a struct field: an option's buffer size, which is
// zero unless the user sets it (a pubsub server's command queue).
func (a *analyzer) configuredChan(flow *lockstate.Result, ch ssa.Value) bool {
	if mc, ok := stripConv(ch).(*ssa.MakeChan); ok {
		return configuredCap(mc)
	}
	return chanIn(a.configCap, flow, ch)
}

// configuredCap reports whether mc's capacity is read from a struct field
// (make(chan cmd, s.cmdsCap)), through a conversion or not.
func configuredCap(mc *ssa.MakeChan) bool {
	size := mc.Size
	if conv, ok := size.(*ssa.Convert); ok {
		size = conv.X
	}
	load, ok := size.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	_, isField := load.X.(*ssa.FieldAddr)
	return isField
}

// tokenChan reports whether t is a channel of empty structs: a send on it
// hands over no data, and in a select it is most often a slot taken from
// a semaphore (select { case t.slots <- struct{}{}: case err := <-t.errs:
// }), which waits while every slot is taken.
func tokenChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// ownElem reports whether t is a channel type whose element type is a
// named type declared in fn's package: only that package makes such
// channels.
func ownElem(fn *ssa.Function, t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok || fn.Pkg == nil {
		return false
	}
	n, ok := types.Unalias(ch.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() == fn.Pkg.Pkg && !n.Obj().Exported()
}

// DrainedSend reports whether send follows, on every path, a non-blocking
// receive that empties the same channel (select { case <-ch: default: };
// ch <- v): the "latest value" mailbox, a channel of capacity one that
// the sender empties before it puts the newest value in. The sender
// makes room itself, so the send is a hand-off, not a wait.
func DrainedSend(send *ssa.Send) bool {
	b := send.Block()
	if b == nil {
		return false
	}
	for _, dom := range dominators(b) {
		for _, instr := range dom.Instrs {
			if dom == b && instr == ssa.Instruction(send) {
				break
			}
			sel, ok := instr.(*ssa.Select)
			if !ok || sel.Blocking {
				continue
			}
			for _, st := range sel.States {
				if st.Dir == types.RecvOnly && sameChan(st.Chan, send.Chan) {
					return true
				}
			}
		}
	}
	return false
}

// dominators returns b and the blocks that dominate it, nearest first.
func dominators(b *ssa.BasicBlock) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	for d := b; d != nil; d = d.Idom() {
		out = append(out, d)
	}
	return out
}

// sameChan reports whether two channel values are the same value, through
// conversions, or two loads of one field of one object (the drain's
// case <-c.ch and the send's c.ch <- v each load c.ch).
func sameChan(a, b ssa.Value) bool {
	a, b = stripConv(a), stripConv(b)
	if a == b {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || la.Op != token.MUL || lb.Op != token.MUL {
		return false
	}
	fa, ok1 := la.X.(*ssa.FieldAddr)
	fb, ok2 := lb.X.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.Field == fb.Field && stripConv(fa.X) == stripConv(fb.X)
}

// BufferedElemSend reports whether a send of fn on ch goes to a channel
// taken out of a container (a waiter list, a map of result slots) whose
// every element the package puts in is a channel it made with a capacity:
// notifying waiters, each with a slot of its own.
func (r *Result) BufferedElemSend(fn *ssa.Function, ch ssa.Value) bool {
	return r.a.bufferedElem(fn, ch)
}

func (a *analyzer) bufferedElem(fn *ssa.Function, ch ssa.Value) bool {
	c := elemSource(ch)
	if c == nil {
		return false
	}
	roots, leak := a.containerRoots(fn, c, 0)
	if len(roots) == 0 && a.droppedAfter(fn, c) {
		roots, leak = a.innerRoots(fn, c)
	}
	if len(roots) == 0 || !leak.Closed() {
		return false
	}
	writes := a.elementWrites(roots)
	for _, w := range writes {
		if !madeBuffered(w.val, 0) {
			return false
		}
	}
	return len(writes) > 0
}

// elemSource returns the container v is read out of (an index, a map
// lookup, a range over a slice or a map), or nil.
func elemSource(v ssa.Value) ssa.Value {
	switch v := stripConv(v).(type) {
	case *ssa.UnOp:
		if ia, ok := v.X.(*ssa.IndexAddr); ok && v.Op == token.MUL {
			return ia.X
		}
	case *ssa.Index:
		return v.X
	case *ssa.Lookup:
		return v.X
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Lookup:
			return t.X
		case *ssa.Next:
			if rng, ok := t.Iter.(*ssa.Range); ok {
				return rng.X
			}
		}
	}
	return nil
}

// droppedAfter reports whether fn deletes the map entry that c, a list
// read out of a map, came from: delete(m, k), with the same map and key.
// Each list of waiters is notified once and dropped, so each of its
// channels gets one value; a list of mailboxes that stays gets a value on
// every update, and a slow reader fills its slot.
func (a *analyzer) droppedAfter(fn *ssa.Function, c ssa.Value) bool {
	var lk *ssa.Lookup
	switch v := stripConv(c).(type) {
	case *ssa.Lookup:
		lk = v
	case *ssa.Extract:
		lk, _ = v.Tuple.(*ssa.Lookup)
	}
	if lk == nil {
		return false
	}
	for _, call := range a.deletesIn(fn) {
		if call.Call.Args[1] == lk.Index && sameChan(call.Call.Args[0], lk.X) {
			return true
		}
	}
	return false
}

// deletesIn returns the calls of the delete builtin in fn, found once per
// function.
func (a *analyzer) deletesIn(fn *ssa.Function) []*ssa.Call {
	if ds, ok := a.deletes[fn]; ok {
		return ds
	}
	var ds []*ssa.Call
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "delete" {
					ds = append(ds, call)
				}
			}
		}
	}
	if a.deletes == nil {
		a.deletes = map[*ssa.Function][]*ssa.Call{}
	}
	a.deletes[fn] = ds
	return ds
}

// innerRoots returns, for c, a container read out of another container
// (a waiter list kept in a map: m[k] = append(m[k], ch)), the inner
// containers the package writes into the outer one. Each must be built
// where it is written (appended to, made, or nil), or their elements
// would come from elsewhere too.
func (a *analyzer) innerRoots(fn *ssa.Function, c ssa.Value) ([]ssa.Value, Origin) {
	outer := elemSource(c)
	if outer == nil {
		return nil, Origin{Unknown: "an element of a container"}
	}
	roots, leak := a.containerRoots(fn, outer, 0)
	if len(roots) == 0 || !leak.Closed() {
		return nil, Origin{Unknown: "an element of a container"}
	}
	var inner []ssa.Value
	for _, w := range a.elementWrites(roots) {
		if !builtInPlace(w.val, 0) {
			return nil, Origin{Unknown: "an element of a container"}
		}
		inner = append(inner, w.val)
	}
	return inner, Origin{}
}

// builtInPlace reports whether v, a container written into another, is
// nil, or an append to a container read out of another: it holds what
// was already there and what the append adds, nothing from outside.
func builtInPlace(v ssa.Value, depth int) bool {
	switch x := stripConv(v).(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.Slice:
		// A removal: append(l[:i], l[i+1:]...).
		return elemSource(x.X) != nil || builtInPlace(x.X, depth+1)
	case *ssa.Call:
		return isAppend(x) && len(x.Call.Args) == 2 && (elemSource(x.Call.Args[0]) != nil || builtInPlace(x.Call.Args[0], depth+1))
	case *ssa.Phi:
		if depth > 4 {
			return false
		}
		for _, e := range x.Edges {
			if !builtInPlace(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// madeBuffered reports whether v is a channel made here with a capacity.
func madeBuffered(v ssa.Value, depth int) bool {
	switch x := stripConv(v).(type) {
	case *ssa.MakeChan:
		return constCap(x)
	case *ssa.Phi:
		if depth > 4 {
			return false
		}
		for _, e := range x.Edges {
			if _, isNil := e.(*ssa.Const); !isNil && !madeBuffered(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// FinalSend reports whether a send of fn is the last value its channel
// ever gets: every send on the channel is followed at once by a close of
// the same channel (w.result <- r; close(w.result)). On a channel made
// with a capacity such a send never waits, whoever receives: each channel
// gets one value.
func (r *Result) FinalSend(fn *ssa.Function, send *ssa.Send) bool {
	k := r.a.chanKeyOf(fn, send.Chan)
	if k == nil {
		return false
	}
	sends := 0
	for _, o := range r.a.joins().signals[k] {
		if srcname.InTest(fn.Prog.Fset, o.Pos()) {
			continue // a test's own send does not decide what production code does
		}
		if s, ok := o.(*ssa.Send); ok {
			if !closedRightAfter(s) {
				return false
			}
			sends++
		}
	}
	return sends > 0
}

// closedRightAfter reports whether the next call or channel operation
// after send in its block closes the channel it sent on.
func closedRightAfter(send *ssa.Send) bool {
	instrs := send.Block().Instrs
	for _, instr := range instrs[slices.Index(instrs, ssa.Instruction(send))+1:] {
		switch x := instr.(type) {
		case *ssa.Send, *ssa.Select, *ssa.Go, *ssa.Defer:
			return false
		case *ssa.UnOp:
			if x.Op == token.ARROW {
				return false
			}
		case *ssa.Call:
			return isClose(x.Common()) && sameInstance(x.Call.Args[0], send.Chan)
		}
	}
	return false
}

// TokenReturn reports whether send puts back what the function took from
// the same channel before it on every path, with no send on it between
// (<-w.comms ... w.comms <- token): a channel used as a lock, whose holder
// returns the one token it took, into the slot its own receive freed.
//
// The take can be a select's receive case, when send runs only after
// that case was chosen (select { case <-ctx.Done(): return; case <-ch: }).
//
// The put back can be a deferred closure's (<-w.comms; defer func() {
// w.comms <- token }()): its send returns the token the function that
// defers it took before the defer.
func TokenReturn(send *ssa.Send) bool {
	if took, found := tookBefore(send, send.Chan, nil); found {
		return took
	}
	fn := send.Parent()
	if fn.Parent() == nil || !lockstate.DominatesReturns(send.Block()) {
		return false
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && mc.Fn == fn {
				took, _ := tookBefore(d, send.Chan, mc)
				return took
			}
		}
	}
	return false
}

// tookBefore reports whether the function of at receives from ch (a value
// of the closure mc makes, when mc is not nil) on every path before at,
// with no send on it between; found is false when neither comes first.
func tookBefore(at ssa.Instruction, ch ssa.Value, mc *ssa.MakeClosure) (took, found bool) {
	b := at.Block()
	for _, dom := range dominators(b) {
		instrs := dom.Instrs
		if dom == b {
			instrs = instrs[:slices.Index(instrs, at)]
		}
		for i := len(instrs) - 1; i >= 0; i-- {
			switch x := instrs[i].(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && sameInstanceBound(ch, x.X, mc) {
					return true, true
				}
			case *ssa.Send:
				if sameInstanceBound(ch, x.Chan, mc) {
					return false, true
				}
			case *ssa.Select:
				for k, st := range x.States {
					if !sameInstanceBound(ch, st.Chan, mc) {
						continue
					}
					if st.Dir != types.RecvOnly {
						return false, true
					}
					if caseTaken(b, x, k) {
						return true, true // select { case <-ctx.Done(): return; case <-ch: }
					}
				}
			}
		}
	}
	return false, false
}

// caseTaken reports whether b runs only after the select sel chose its
// k'th case: b is reached only through the branch where the select's
// index equals k.
func caseTaken(b *ssa.BasicBlock, sel *ssa.Select, k int) bool {
	return guardedBy(b, nil, func(cond ssa.Value, taken bool) bool {
		bin, ok := cond.(*ssa.BinOp)
		if !ok || bin.Op != token.EQL || !taken {
			return false
		}
		ex, ok := bin.X.(*ssa.Extract)
		return ok && ex.Tuple == sel && ex.Index == 0 && isIntConst(bin.Y, int64(k))
	})
}

// assertedChanWhy is the note's reason for a send on a channel asserted
// out of an interface value.
const assertedChanWhy = "the channel is the caller's value asserted out of an interface, a channel only if the caller passes one"

// assertedChan reports whether ch is a channel the function took out of an
// interface value by a type assertion (on every path): a decoder that
// fills whatever its caller hands it sends only when that is a channel,
// which callers decoding into a map or a struct never pass.
//
//	ch, ok := v.(chan<- byte)
//	if !ok {
//		ch = v.(chan byte)
//	}
//	for _, b := range data {
//		ch <- b
//	}
func assertedChan(ch ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch v := ch.(type) {
	case *ssa.TypeAssert:
		return types.IsInterface(v.X.Type())
	case *ssa.Extract:
		ta, ok := v.Tuple.(*ssa.TypeAssert)
		return ok && v.Index == 0 && types.IsInterface(ta.X.Type())
	case *ssa.ChangeType:
		return assertedChan(v.X, depth+1)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if k, ok := e.(*ssa.Const); ok && k.IsNil() {
				continue
			}
			if !assertedChan(e, depth+1) {
				return false
			}
		}
		return len(v.Edges) > 0
	}
	return false
}

// AssertedChanSend reports why send, on a channel asserted out of an
// interface value (assertedChan), is only plausible.
func AssertedChanSend(send *ssa.Send) (string, bool) {
	if assertedChan(send.Chan, 0) {
		return assertedChanWhy, true
	}
	return "", false
}
