package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// This file recognises hand-offs to an executor: a goroutine of the
// package that receives tasks from an inbox and runs each task's func,
// while the function that handed the task over waits for it to finish.
//
//	func (l *Loop) Run(fn func()) error {
//		done := make(chan struct{})
//		select {
//		case <-l.closed:
//			return errClosed
//		case l.tasks <- task{fn, done}: // the loop is busy with earlier tasks
//			<-done                        // fn runs on the loop
//			return nil
//		}
//	}
//
//	func (l *Loop) run() {
//		for {
//			select {
//			case <-l.closed:
//				return
//			case t := <-l.tasks:
//				t.fn()
//				close(t.done)
//			}
//		}
//	}
//
// Run calls fn, as far as its callers are concerned: fn joins Run's
// CallsParams, so each caller judges the func it passes (a task that
// writes to a socket makes the call block). The hand-off and the wait for
// the task's completion also wait for the tasks queued before this one,
// which the package's other callers supply: when the loop does nothing of
// its own that can wait (quickExecutor), that wait is only plausible, a
// note. A loop that does its own I/O between tasks keeps the wait proven.

// executorWhy is the Plausible text of a wait for an executor.
const executorWhy = "waits for an executor goroutine to run the tasks queued before this one"

// An executorTask is a task value a function sends to an executor: the
// parameter of the function whose func it carries, and the channel it is
// told of the task's completion on (nil when the task carries none).
type executorTask struct {
	param int
	done  ssa.Value // the function's own make
	// inbox holds the keys of the channel the task is sent on, workers
	// the goroutines that receive from it.
	inbox   []chanKey
	workers []*ssa.Function
}

// executorTasks returns the tasks fn hands to executors, by the
// instruction that sends them (a send, or a select with the send case),
// computed once per function.
func (a *analyzer) executorTasks(fn *ssa.Function) map[ssa.Instruction]executorTask {
	if t, ok := a.executors[fn]; ok {
		return t
	}
	if a.executors == nil {
		a.executors = map[*ssa.Function]map[ssa.Instruction]executorTask{}
	}
	var out map[ssa.Instruction]executorTask
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, s := range sendsOf(instr) {
				if t, ok := a.executorTaskOf(fn, s.ch, s.v); ok {
					if out == nil {
						out = map[ssa.Instruction]executorTask{}
					}
					out[instr] = t
				}
			}
		}
	}
	a.executors[fn] = out
	return out
}

// executorTaskOf reports whether v, sent on ch by fn, is a task carrying
// one of fn's func parameters to executors: the package's goroutines that
// receive from ch all call the func they take out of the value.
func (a *analyzer) executorTaskOf(fn *ssa.Function, ch, v ssa.Value) (executorTask, bool) {
	parts, funcPart, ok := taskParts(v)
	if !ok {
		return executorTask{}, false
	}
	t := executorTask{param: -1}
	for key, part := range parts {
		if p, ok := part.(*ssa.Parameter); ok && key == funcPart(key) {
			if i := slices.Index(fn.Params, p); i >= 0 {
				t.param = i
			}
		}
		if _, ok := part.(*ssa.MakeChan); ok && part.Parent() == fn {
			t.done = part
		}
	}
	if t.param < 0 {
		return executorTask{}, false
	}
	t.inbox = a.chanKeysOf(fn, ch)
	ok = a.eachReceiver(fn, ch, func(r ssa.Instruction, k chanKey, w *ssa.Function) bool {
		t.workers = addWorkers(t.workers, []*ssa.Function{w})
		return runsTask(r, k, a, funcPart)
	})
	return t, ok
}

// A chanSend is a value an instruction sends, and the channel it goes on.
type chanSend struct{ ch, v ssa.Value }

// sendsOf returns what instr sends: a send's value, or the value of each
// send case of a select.
func sendsOf(instr ssa.Instruction) []chanSend {
	switch x := instr.(type) {
	case *ssa.Send:
		return []chanSend{{x.Chan, x.X}}
	case *ssa.Select:
		var out []chanSend
		for _, st := range x.States {
			if st.Dir == types.SendOnly {
				out = append(out, chanSend{st.Chan, st.Send})
			}
		}
		return out
	}
	return nil
}

// eachReceiver reports whether the channel ch of fn is received from in
// the package, only on goroutines the package starts (other than fn's),
// and accept accepts each receive r, given the key k of the channel it
// takes from and its goroutine w.
func (a *analyzer) eachReceiver(fn *ssa.Function, ch ssa.Value, accept func(r ssa.Instruction, k chanKey, w *ssa.Function) bool) bool {
	keys := a.chanKeysOf(fn, ch)
	if len(keys) == 0 {
		return false
	}
	ix := a.joins()
	for _, k := range keys {
		recvs := ix.recvs[k]
		if len(recvs) == 0 {
			return false
		}
		for _, r := range recvs {
			w := a.worker(r.Parent())
			if w == nil || w == fn || !accept(r, k, w) {
				return false
			}
		}
	}
	return true
}

// taskParts returns the values a task value v is built from, by field
// index (a struct composite literal, by value or by pointer) or by
// binding index (a closure, whose func is the task itself: funcPart
// returns -1 for every part then, and the closure's call runs them).
func taskParts(v ssa.Value) (parts map[int]ssa.Value, funcPart func(int) int, ok bool) {
	if mc, isClosure := v.(*ssa.MakeClosure); isClosure {
		parts = map[int]ssa.Value{}
		for i, b := range mc.Bindings {
			parts[i] = b
		}
		// A closure calls the parameters it captures; only those
		// count as the task's func.
		g, _ := mc.Fn.(*ssa.Function)
		return parts, func(i int) int {
			if g != nil && i < len(g.FreeVars) && calledFreeVar(g.FreeVars[i]) {
				return i
			}
			return -1
		}, true
	}
	if ld, isLoad := v.(*ssa.UnOp); isLoad && ld.Op == token.MUL {
		v = ld.X
	}
	alloc, isAlloc := v.(*ssa.Alloc)
	if !isAlloc {
		return nil, nil, false
	}
	parts = map[int]ssa.Value{}
	for _, ref := range *alloc.Referrers() {
		fa, isField := ref.(*ssa.FieldAddr)
		if !isField {
			continue
		}
		for _, fr := range *fa.Referrers() {
			if st, isStore := fr.(*ssa.Store); isStore && st.Addr == fa {
				parts[fa.Field] = st.Val
			}
		}
	}
	return parts, func(i int) int {
		if p, ok := parts[i]; ok {
			if _, isFunc := p.Type().Underlying().(*types.Signature); isFunc {
				return i
			}
		}
		return -1
	}, true
}

// calledFreeVar reports whether a closure calls its captured variable fv.
func calledFreeVar(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		if c, ok := ref.(ssa.CallInstruction); ok && c.Common().Value == fv {
			return true
		}
	}
	return false
}

// runsTask reports whether the receive r (a receive, or a select with a
// receive case on the channel k) takes a task whose func its function
// then calls: the func field of the received struct (or of what a
// received pointer points to), or the received func itself.
func runsTask(r ssa.Instruction, k chanKey, a *analyzer, funcPart func(int) int) bool {
	for _, v := range a.received(r, k) {
		if taskCalled(v, funcPart) {
			return true
		}
	}
	return false
}

// received returns the values the receive r (a receive, a range over a
// channel, or a select with receive cases on the channel k) takes from k.
func (a *analyzer) received(r ssa.Instruction, k chanKey) []ssa.Value {
	switch x := r.(type) {
	case *ssa.UnOp:
		if x.CommaOk {
			return extracts(x, 0) // for t := range tasks, t, ok := <-tasks
		}
		return []ssa.Value{x}
	case *ssa.Select:
		var got []ssa.Value
		recv := 0
		for _, st := range x.States {
			if st.Dir != types.RecvOnly {
				continue
			}
			if slices.Contains(a.chanKeysOf(r.Parent(), st.Chan), k) {
				got = append(got, extracts(x, 2+recv)...)
			}
			recv++
		}
		return got
	}
	return nil
}

// extracts returns the extractions of the i'th element of the tuple v.
func extracts(v ssa.Value, i int) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *v.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i {
			out = append(out, ex)
		}
	}
	return out
}

// taskCalled reports whether the received task v has its func called:
// called itself, or a func field of it (or of its pointee, or of the
// local variable it is copied into) loaded and called.
func taskCalled(v ssa.Value, funcPart func(int) int) bool {
	called := func(f ssa.Value) bool {
		for _, ref := range *f.Referrers() {
			if c, ok := ref.(ssa.CallInstruction); ok && c.Common().Value == f {
				return true
			}
		}
		return false
	}
	if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc {
		return called(v)
	}
	holders := []ssa.Value{v}
	for _, ref := range *v.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Val == v {
			if _, local := st.Addr.(*ssa.Alloc); local {
				holders = append(holders, st.Addr)
			}
		}
	}
	for _, h := range holders {
		for _, ref := range *h.Referrers() {
			switch x := ref.(type) {
			case *ssa.Field:
				if funcPart(x.Field) == x.Field && called(x) {
					return true
				}
			case *ssa.FieldAddr:
				if funcPart(x.Field) != x.Field {
					continue
				}
				for _, fr := range *x.Referrers() {
					if ld, ok := fr.(*ssa.UnOp); ok && ld.Op == token.MUL && called(ld) {
						return true
					}
				}
			}
		}
	}
	return false
}

// executorWait returns the task a wait of fn is part of: the send of the
// task itself, or a receive from the completion channel of a task fn
// sends before it.
func (a *analyzer) executorWait(fn *ssa.Function, instr ssa.Instruction) (executorTask, bool) {
	tasks := a.executorTasks(fn)
	if len(tasks) == 0 {
		return executorTask{}, false
	}
	if t, ok := tasks[instr]; ok {
		return t, true
	}
	recv, ok := instr.(*ssa.UnOp)
	if !ok || recv.Op != token.ARROW {
		return executorTask{}, false
	}
	k := a.chanKeyOf(fn, recv.X)
	for send, t := range tasks {
		if t.done != nil && k == chanKey(t.done) && Precedes(send, instr) {
			return t, true
		}
	}
	return executorTask{}, false
}

// decideExecutor adds to s, fn's summary, the reason of the executor
// wait jc, once the executors' summaries are known: only plausible when
// each executor is quick (quickExecutor). It reports whether s changed.
func (a *analyzer) decideExecutor(s *Summary, jc joinCand) bool {
	rc := *jc.reason // decided again on each pass (propagate.go)
	r := &rc
	quick := true
	for _, w := range jc.workers {
		if !a.quickExecutor(w, jc.inbox) {
			quick = false
			break
		}
	}
	if quick {
		r.Plausible, r.Guarded = executorWhy, true
	}
	return !a.quiet && s.addBlock(r)
}

// quickExecutor reports whether the executor w does nothing that can
// wait besides running its tasks and waiting for the next: each wait of
// its own is on its inbox (a receive, or a select with a receive case on
// it) or tells a task's waiter it is done; it makes no I/O, sleep or wait,
// calls nothing that may block or run unknown code, and calls no func
// value but the tasks' funcs, which its callers judge. Only its loop
// counts, the blocks that can come back to a wait, with the closures it
// calls there: what it does on its way out (a deferred close hook) runs
// once it has stopped taking tasks, and a waiter leaves through the
// loop's closed channel.
func (a *analyzer) quickExecutor(w *ssa.Function, inbox []chanKey) bool {
	onInbox := func(fn *ssa.Function, ch ssa.Value) bool {
		return slices.ContainsFunc(a.chanKeysOf(fn, ch), func(k chanKey) bool { return slices.Contains(inbox, k) })
	}
	inLoop := loopBlocks(w)
	fns := []*ssa.Function{w}
	for i := 0; i < len(fns) && i < 32; i++ {
		fn := fns[i]
		for _, b := range fn.Blocks {
			if fn == w && !inLoop[b] {
				continue
			}
			for _, instr := range b.Instrs {
				if _, deferred := instr.(*ssa.Defer); deferred {
					continue // runs on the way out
				}
				if c, ok := instr.(*ssa.Call); ok {
					if g := ClosureFn(c.Call.Value); g != nil && g.Parent() != nil && !slices.Contains(fns, g) {
						fns = append(fns, g) // a closure run in place
						continue
					}
				}
				if !a.executorStepQuick(fn, instr, onInbox) {
					return false
				}
			}
		}
	}
	return true
}

// executorStepQuick reports whether instr, a step of an executor, waits
// for nothing but its inbox and runs no func value but a task's.
func (a *analyzer) executorStepQuick(fn *ssa.Function, instr ssa.Instruction, onInbox func(*ssa.Function, ssa.Value) bool) bool {
	switch x := instr.(type) {
	case *ssa.Call:
		c := x.Common()
		if _, builtin := c.Value.(*ssa.Builtin); builtin {
			return true
		}
		if a.blockingOp(c) {
			return false // catalogued I/O, sleep or wait
		}
		var s *Summary
		switch callee := StaticCallee(c); {
		case callee != nil:
			s = a.summary(callee)
		case c.IsInvoke():
			if QuietMethod(c.Method) {
				return true
			}
			s = a.summaryOfObj(c.Method)
			if s == nil {
				return false // code of open origin
			}
		default:
			return isTaskFunc(c.Value)
		}
		return s == nil || len(s.Blocks) == 0 && s.Callback == nil && s.Unknown == nil
	case *ssa.UnOp:
		return x.Op != token.ARROW || onInbox(fn, x.X)
	case *ssa.Select:
		if !x.Blocking {
			return true
		}
		for _, st := range x.States {
			if st.Dir == types.RecvOnly && onInbox(fn, st.Chan) {
				return true
			}
		}
		return false
	case *ssa.Send:
		// Telling the task's waiter, who is waiting for it.
		return isTaskFunc(x.Chan)
	}
	return true
}

// isTaskFunc reports whether f is a value taken out of a received one:
// the value itself, or a field of it (or of its pointee, or of the local
// variable it was copied into).
func isTaskFunc(f ssa.Value) bool {
	for range 6 {
		switch x := f.(type) {
		case *ssa.UnOp:
			if x.Op == token.ARROW {
				return true
			}
			f = x.X
		case *ssa.Field:
			f = x.X
		case *ssa.FieldAddr:
			f = x.X
		case *ssa.Extract:
			if _, isSelect := x.Tuple.(*ssa.Select); isSelect {
				return true
			}
			f = x.Tuple
		case *ssa.Alloc:
			stored := storedOnce(x)
			if stored == nil {
				return false
			}
			f = stored
		default:
			return false
		}
	}
	return false
}

// signalledByTask reports whether recv, a receive of fn, takes from a
// channel fn makes that only closures signal, each handed to a call
// before recv whose callee calls it (CallsParams): an executor's Run, a
// helper that runs its func in place. The wait is the call's own, which
// its callee's summary already says; the receive finds the channel
// signalled.
//
//	set := make(chan struct{})
//	err := a.loop.Run(func() { ufrag = a.ufrag; close(set) })
//	if err == nil {
//		<-set // Run has run the closure
//	}
func (a *analyzer) signalledByTask(fn *ssa.Function, recv *ssa.UnOp) bool {
	if a.answerField(fn, recv) {
		return true
	}
	var ch ssa.Value // the channel, or the variable a closure captures it in
	switch x := recv.X.(type) {
	case *ssa.MakeChan:
		ch = x
	case *ssa.UnOp:
		cell, ok := x.X.(*ssa.Alloc)
		if !ok || x.Op != token.MUL {
			return false
		}
		if mc, ok := storedOnce(cell).(*ssa.MakeChan); !ok || len(*mc.Referrers()) != 1 {
			return false
		}
		ch = cell
	default:
		return false
	}
	if ch.Parent() != fn {
		return false
	}
	handed := false
	for _, ref := range *ch.Referrers() {
		switch x := ref.(type) {
		case *ssa.UnOp:
			if !onlyReceived(x) {
				return false
			}
		case *ssa.MakeClosure:
			if !signalsItself(x, ch) || !a.runByCallsBefore(x, recv) && !a.sentToExecutorBefore(fn, x, recv) {
				return false
			}
			handed = true
		case *ssa.Store:
			if x.Addr == ch {
				continue
			}
			// Put in a request an actor answers on it (replies.go).
			fa, ok := x.Addr.(*ssa.FieldAddr)
			if !ok {
				return false // stored elsewhere: signalled elsewhere too
			}
			req, ok := fa.X.(*ssa.Alloc)
			if !ok || a.requestReplies(fn, req, fa.Field, recv) == nil {
				return false
			}
			handed = true
		case *ssa.DebugRef:
		default:
			return false // sent, passed: signalled elsewhere too
		}
	}
	return handed
}

// onlyReceived reports whether x, a receive or a load of a variable
// holding a channel, is only received from.
func onlyReceived(x *ssa.UnOp) bool {
	if x.Op == token.ARROW {
		return true
	}
	if x.Op != token.MUL {
		return false
	}
	for _, ref := range *x.Referrers() {
		switch r := ref.(type) {
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// SignalledByTask is signalledByTask for the analyzers: a receive of f,
// made under a lock, from a channel only a task f handed over signals.
func (r *Result) SignalledByTask(f *Func, recv *ssa.UnOp) bool {
	return f != nil && r.a.signalledByTask(f.Fn, recv)
}

// runByCallsBefore reports whether the closure mc is only ever handed,
// as an argument, to calls before at whose callees call that parameter.
func (a *analyzer) runByCallsBefore(mc *ssa.MakeClosure, at ssa.Instruction) bool {
	refs := *mc.Referrers()
	if len(refs) == 0 {
		return false
	}
	for _, ref := range refs {
		call, ok := ref.(*ssa.Call)
		if !ok || !Precedes(call, at) {
			return false
		}
		c := call.Common()
		var s *Summary
		shift := 0
		if callee := StaticCallee(c); callee != nil {
			s = a.summary(callee)
		} else if c.IsInvoke() {
			s, shift = a.summaryOfObj(c.Method), 1
		}
		i := slices.Index(c.Args, ssa.Value(mc))
		if s == nil || i < 0 || !s.CallsParam(i+shift) {
			return false
		}
	}
	return true
}

// sentTasks returns the closures that instr (a send, or a select with send
// cases) hands to executors: sent on a channel whose receivers are all
// goroutines of the package that call the func they receive.
//
//	select {
//	case p.eval <- func() { res <- p.score.Update(t) }: // run by processLoop
//		return <-res
//
// Such a closure runs while its sender waits for its answer: its summary
// counts as the sender's (a site), and a receive from a channel only it
// signals is the sender's wait for it (signalledByTask).
func (a *analyzer) sentTasks(fn *ssa.Function, instr ssa.Instruction) []*ssa.MakeClosure {
	var out []*ssa.MakeClosure
	whole := func(int) int { return -1 }
	for _, s := range sendsOf(instr) {
		mc, ok := s.v.(*ssa.MakeClosure)
		if ok && a.eachReceiver(fn, s.ch, func(r ssa.Instruction, k chanKey, _ *ssa.Function) bool { return runsTask(r, k, a, whole) }) {
			out = append(out, mc)
		}
	}
	return out
}

// sentToExecutorBefore reports whether every use of the closure mc is a
// send of it to executors (sentTasks) before at.
func (a *analyzer) sentToExecutorBefore(fn *ssa.Function, mc *ssa.MakeClosure, at ssa.Instruction) bool {
	refs := *mc.Referrers()
	if len(refs) == 0 {
		return false
	}
	for _, ref := range refs {
		if !Precedes(ref, at) || !slices.Contains(a.sentTasks(fn, ref), mc) {
			return false
		}
	}
	return true
}

// signalsItself reports whether the closure mc uses the channel it
// captures as ch (the channel, or the variable holding it) only to send on
// it or close it in its own body: it does not hand it on to a goroutine or
// another closure, which could signal it later.
func signalsItself(mc *ssa.MakeClosure, ch ssa.Value) bool {
	g, _ := mc.Fn.(*ssa.Function)
	i := slices.Index(mc.Bindings, ch)
	if g == nil || i < 0 || i >= len(g.FreeVars) {
		return false
	}
	uses := []ssa.Value{g.FreeVars[i]}
	for _, ref := range *g.FreeVars[i].Referrers() {
		if ld, ok := ref.(*ssa.UnOp); ok && ld.Op == token.MUL {
			uses = append(uses, ld) // the channel, read from its variable
		}
	}
	signals := false
	for _, u := range uses {
		for _, ref := range *u.Referrers() {
			switch r := ref.(type) {
			case *ssa.Send:
				if r.Chan != u {
					return false
				}
				signals = true
			case *ssa.Call:
				if !isClose(r.Common()) {
					return false
				}
				signals = true
			case *ssa.UnOp:
				if r.Op != token.MUL || u != g.FreeVars[i] {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return signals
}
