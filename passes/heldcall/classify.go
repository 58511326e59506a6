package heldcall

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// withCycleLock returns held with h, the lock a channel's other side
// takes before it gets to the channel, when there is such a cycle: a join
// may have left it out of held (its worker takes it only on its way to a
// crash, which the held lock then stops), and it is the lock the finding
// is about.
func withCycleLock(held []lockstate.Held, cycle bool, h lockstate.Held) []lockstate.Held {
	if !cycle || slices.ContainsFunc(held, func(x lockstate.Held) bool { return x.Class == h.Class }) {
		return held
	}
	return append(slices.Clip(held), h)
}

// classify decides whether instr, executed while the locks held are held, is
// a finding, and of which category.
func (c *checker) classify(f *summary.Func, instr ssa.Instruction, held []lockstate.Held) *finding {
	switch instr := instr.(type) {
	case *ssa.Send:
		r, h, cycle := c.sendCycle(f, instr.Chan, held)
		if (c.res.BufferedSend(f.Flow, instr.Chan) || summary.DrainedSend(instr) || c.res.BufferedElemSend(f.Fn, instr.Chan)) &&
			(!cycle || c.res.FinalSend(f.Fn, instr) || summary.TokenReturn(instr) || c.onlyDrainedSend(f, instr) || c.res.QueueSend(f.Flow, instr.Chan)) {
			// A buffered send waits only for a full buffer; a channel
			// whose every send is followed by its close never fills,
			// a token put back goes into the slot its own receive
			// freed, and so does a value put in by the channel's only
			// sender, which empties it first under the lock it holds:
			// a receiver that needs the lock cannot hold it up. Nor
			// does a queue sized for any backlog fill.
			return nil
		}
		if held = c.joinHeld(instr, held); !cycle && len(held) == 0 {
			return nil
		}
		held = withCycleLock(held, cycle, h)
		fd := &finding{category: "chan", what: "channel send", held: held, sides: f.Flow.IDOf(instr.Chan).Class != ""}
		if cycle {
			c.cycleNote(fd, r, h)
		} else if why, ok := summary.AssertedChanSend(instr); ok {
			fd.level, fd.why = confidence.Note, why
		}
		return fd
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			if c.res.ReadyRecv(f, instr) || c.res.SignalledByTask(f, instr) {
				return nil // from a context already done on every path
			}
			r, h, cycle := c.recvCycle(f, instr.X, held)
			if held = c.res.ClosedFirst(f, instr, c.joinHeld(instr, held)); !cycle && len(held) == 0 {
				return nil
			}
			held = withCycleLock(held, cycle, h)
			fd := &finding{category: "chan", what: "channel receive", held: held, sides: f.Flow.IDOf(instr.X).Class != ""}
			if cycle {
				c.recvCycleNote(fd, r, h)
			}
			return fd
		}
	case *ssa.Select:
		if instr.Blocking {
			if ch := c.res.BufferedCase(f.Flow, instr); ch != nil {
				if _, _, cycle := c.sendCycle(f, ch, held); !cycle {
					return nil // a buffered send case: the plain send's hand-off
				}
			}
			// A fence's read side held across a wait its writers end
			// first keeps no one waiting (summary.Result.ClosedFirst).
			if held = c.res.ClosedFirst(f, instr, c.joinHeld(instr, held)); len(held) == 0 {
				return nil
			}
			return &finding{category: "select", what: "blocking select", held: held}
		}
	case *ssa.Call:
		if summary.NotStartedWait(instr.Common(), instr) {
			return nil // the command's Start failed: nothing to wait for
		}
		if summary.IsWaitGroupWait(instr.Common()) {
			// A join with the package's quick workers blocks only the
			// locks they take.
			if held = c.joinHeld(instr, held); len(held) == 0 {
				return nil
			}
		}
		fd := c.classifyCall(f, instr.Common(), held)
		if fd != nil && fd.category == "callback" && fd.level == confidence.Warning && summary.StaticCallee(instr.Common()) == nil &&
			!instr.Common().IsInvoke() && c.res.AppliedToFresh(f, instr) {
			fd.level, fd.why = confidence.Note, summary.AppliedToFreshWhy
		}
		return fd
	case *ssa.Defer:
		// A deferred call runs at return, before the releases deferred
		// ahead of it: mu.Lock(); defer mu.Unlock(); defer hook().
		var deferred []lockstate.Held
		for _, h := range held {
			if h.Deferred {
				deferred = append(deferred, h)
			}
		}
		if len(deferred) == 0 {
			return nil
		}
		fd := c.classifyCall(f, instr.Common(), deferred)
		if fd != nil {
			fd.what = "deferred " + fd.what
		}
		return fd
	}
	return nil
}

func (c *checker) classifyCall(f *summary.Func, call *ssa.CallCommon, held []lockstate.Held) *finding {
	op := lockstate.OpOf(call)
	switch op.Kind {
	case lockstate.Acquire, lockstate.Release, lockstate.TryAcq:
		return nil // nested locking is lockorder's and shardlock's business
	case lockstate.CondWait:
		// Wait releases the Cond's L: only other locks stay held. A
		// lock taken through this very Cond's L (c.cond.L.Lock()) is
		// that L, whatever the class of what L was set to.
		cond := f.Flow.IDOf(op.Recv)
		if cond.Key != "" {
			held = withoutKey(held, cond.Key+".L")
		}
		l := c.res.CondLock(cond.Class)
		if l == "" {
			return nil
		}
		// Two Conds made on one mutex share it: a lock taken through
		// the other's L is released too.
		held = heldExcept(held, func(h lockstate.Held) bool { return c.res.ThroughCondL(h.Class, h.Key, cond.Class, cond.Key) })
		if others := withoutReleased(held, l); len(others) > 0 {
			return &finding{category: catalog.Wait, what: "call of (*sync.Cond).Wait", held: others}
		}
		return nil
	}
	cat := c.res.Catalog
	if call.IsInvoke() {
		return c.classifyInvoke(f, call, held)
	}
	if y := summary.YieldArg(call); y != nil {
		// A range-over-func loop: the iterator is traversal code and the
		// loop body is checked in place.
		return nil
	}
	if f.Flow.IsUnlocker(call.Value) {
		return nil // the unlock function a lock wrapper returned
	}
	callee := summary.StaticCallee(call)
	if callee == nil {
		if _, ok := call.Value.(*ssa.Builtin); ok {
			return nil
		}
		return c.funcValue(f, call.Value, "call of func value "+c.source(call.Pos(), call.Value), held)
	}
	args := call.Args // the callee's parameters in order
	if m, iface, ok := summary.BoundMethod(callee); ok {
		if iface {
			return &finding{category: "callback", what: "call of func value " + c.source(call.Pos(), call.Value), held: held,
				level: confidence.Note, why: "a method value of an interface"}
		}
		if m != nil {
			callee, args = m, summary.MethodArgs(call)
		}
	}
	if cf := c.res.Func(callee); cf != nil && cf.InPlace {
		return nil // its body is checked in this context
	}
	name := c.calleeName(callee)
	if obj := summary.FuncObject(callee); obj != nil {
		if summary.NoWaitCall(obj, args) || c.res.StackSourceRead(obj, args) {
			return nil
		}
		if kind, ok := cat.Direct(obj); ok {
			if cat.StreamHelper(obj) {
				kind = c.streamKind(args, kind)
			}
			return &finding{category: kind, what: "call of " + name, held: held}
		}
		if cat.Quiet(obj) {
			return nil
		}
		if cat.ResolvesNames(obj) {
			return &finding{category: catalog.Net, what: "call of " + name, held: held, level: confidence.Note, why: catalog.ResolvesNamesWhy}
		}
	}
	s := c.res.SummaryOf(callee)
	if s == nil {
		return nil
	}
	var bindings []ssa.Value
	if mc, ok := call.Value.(*ssa.MakeClosure); ok && len(args) == len(call.Args) {
		bindings = mc.Bindings
	}
	var chain *finding // a blocking chain only plausible: a proven callback comes first
	if r := c.res.BlockAt(s, f.Fn, call, args, bindings); r != nil {
		r = c.res.ResolveCondLock(r, f, args)
		if hs := c.blockedBy(r, held); len(hs) > 0 {
			fd := blocksFinding("call of "+name+", which blocks: "+c.chain(r), r, hs)
			if fd.level == confidence.Warning {
				return fd
			}
			chain = fd
		}
	}
	fd := c.callbacksOf(f, call, callee, name, s, args, held)
	if fd == nil && chain == nil && c.res.Func(callee) != nil {
		return c.sendsVia(f, call, name, s, args, bindings, held)
	}
	if fd == nil || chain != nil && fd.level != confidence.Warning {
		return chain
	}
	return fd
}

// callbacksOf returns the finding, if any, for what a call of callee runs
// that its caller does not control: the func values and interface values
// it is handed and calls, and the package's callbacks it calls.
func (c *checker) callbacksOf(f *summary.Func, call *ssa.CallCommon, callee *ssa.Function, name string, s *summary.Summary, args []ssa.Value, held []lockstate.Held) *finding {
	// Func values handed to a callee that calls them.
	for i, arg := range args {
		if !s.CallsParam(i) || arg == nil {
			continue
		}
		// The callee may call it with some of the caller's locks
		// released (an unlock/relock window around the call).
		held := lockstate.WithoutClasses(held, s.ReleasedAt(i))
		if len(held) == 0 {
			continue
		}
		if g, recv := summary.CalledFn(arg); g != nil {
			if r := c.argBlock(f, g, recv); r != nil {
				if hs := c.blockedBy(r, held); len(hs) > 0 {
					return blocksFinding("call of "+name+" with a func that blocks: "+c.chain(r), r, hs)
				}
			}
			continue
		}
		if summary.ClosureFn(arg) != nil {
			// A method value of an interface: what it runs is not
			// known, as for a closure that calls the method.
			continue
		}
		if _, isParam := arg.(*ssa.Parameter); !isParam && summary.IsNil(arg) {
			continue
		}
		if fd := c.funcValue(f, arg, "call of "+name+", which calls func value "+summary.ValueName(arg), held); fd != nil {
			return fd
		}
	}
	// Interface values handed to a callee that calls their methods
	// (fmt.Fprintf(conn, ...), io.Copy(file, r)): judged by what is passed.
	for i, arg := range args {
		if !s.InvokesParam(i) || arg == nil {
			continue
		}
		if kind, op, ok := c.ioBlocking(arg, summary.ParamType(callee.Signature, i)); ok {
			return &finding{category: kind, what: "call of " + name + ", which calls " + op + " on " + c.argName(call, i), held: held}
		}
	}
	if c.res.Func(callee) == nil {
		return nil // other packages' callbacks are their documented contracts
	}
	if r := s.Callback; r != nil && c.res.MayHold(r, f.Fn, call, args, nil) {
		if hs := c.blockedBy(r, held); len(hs) > 0 {
			return withReason(&finding{category: "callback", what: "call of " + name + ", which calls " + r.Chain[len(r.Chain)-1] + " (" + c.chain(r) + ")", held: hs}, r)
		}
	}
	if r := s.Unknown; r != nil {
		if hs := c.blockedBy(r, held); len(hs) > 0 {
			return withReason(&finding{category: "interface", what: "call of " + name + ", which calls " + r.Chain[len(r.Chain)-1], held: hs}, r)
		}
	}
	return nil
}

// argBlock returns why the function g, handed to the callee as a func
// value, blocks: for a method value (s.settle), under the conditions its
// bound receiver recv decides.
func (c *checker) argBlock(f *summary.Func, g *ssa.Function, recv ssa.Value) *summary.Reason {
	s := c.res.SummaryOf(g)
	if recv != nil {
		return c.res.BlockAt(s, f.Fn, nil, []ssa.Value{recv}, nil)
	}
	return s.AnyBlock()
}

// classifyInvoke classifies an interface method call: a method the
// catalogue says blocks, a closed set of implementations judged by what
// they do, or code of open origin (a note).
func (c *checker) classifyInvoke(f *summary.Func, call *ssa.CallCommon, held []lockstate.Held) *finding {
	m := call.Method
	what := "call of " + summary.IfaceMethodName(call.Value.Type(), m, c.pass.Pkg)
	if summary.ShortReplyInvoke(call) {
		return nil // buffered by net/http until the handler returns
	}
	if kind, ok := c.res.Catalog.Blocking(m); ok {
		return &finding{category: kind, what: what, held: held}
	}
	d := c.res.Dispatch(f.Flow, call)
	if d.Open == "" {
		return c.firstBlockingMethod(d.Methods, what, held)
	}
	if catalog.Cheap(call.Value.Type(), m) || summary.QuietMethod(m) {
		return nil
	}
	return &finding{category: "interface", what: "call of interface method " + summary.IfaceMethodName(call.Value.Type(), m, c.pass.Pkg), held: held,
		level: confidence.Note, why: d.Open}
}

// funcValue classifies the call of a func value v: a proven callback when
// it comes from data the package's callers supply (a queued job, a
// registered hook), the known targets' blocking otherwise, and a note when
// it can also be code the package does not decide.
func (c *checker) funcValue(f *summary.Func, v ssa.Value, what string, held []lockstate.Held) *finding {
	o := c.res.FuncOrigin(f.Fn, v)
	computes := o.Supplied != "" && summary.Computes(v.Type())
	if o.Supplied != "" && !computes {
		return &finding{category: "callback", what: what, held: held}
	}
	if fd := c.firstBlocking(o.Targets, what, held); fd != nil {
		return fd
	}
	if computes {
		return &finding{category: "callback", what: what, held: held, level: confidence.Note, why: summary.ComputesWhy(v.Type())}
	}
	if o.Unknown != "" {
		return &finding{category: "callback", what: what, held: held, level: confidence.Note, why: "the func value can be " + o.Unknown}
	}
	return nil
}

// maxProvenDepth is the deepest chain of calls down to a blocking
// operation that makes a proven finding. Every call on the way may run the
// next one only under conditions lockaudit does not decide (the state of
// an object, a mode set elsewhere): on real servers, chains deeper than
// this were mostly paths that cannot run, and a reviewer of the lock site
// cannot act on them.
const maxProvenDepth = 6

// blocksFinding is the finding for a call whose chain r blocks: a note when
// the operation is deeper than maxProvenDepth calls down, or only
// plausible (a name lookup that depends on the address).
func blocksFinding(what string, r *summary.Reason, held []lockstate.Held) *finding {
	fd := &finding{category: "blocks", what: what, held: held, op: r.Kind}
	if calls := len(r.Chain) - 1; calls > maxProvenDepth {
		fd.level = confidence.Note
		fd.why = fmt.Sprintf("the operation is %d calls down, past conditions not decided here", calls)
		if len(r.Chain) >= summary.MaxChain {
			fd.why = fmt.Sprintf("the operation is more than %d calls down, past conditions not decided here", maxProvenDepth)
		}
	}
	if r.Plausible != "" {
		fd.level, fd.why = confidence.Note, r.Plausible
	}
	return fd
}

// withReason carries a summary reason's confidence over to a finding.
func withReason(fd *finding, r *summary.Reason) *finding {
	fd.op = r.Kind
	if r.Plausible != "" {
		fd.level, fd.why = confidence.Note, r.Plausible
	}
	return fd
}

// streamKind returns the category of an I/O helper's call (io.ReadFull
// on a net.Conn is network I/O): that of the first argument whose I/O
// methods are catalogued, or kind, the helper's own.
func (c *checker) streamKind(args []ssa.Value, kind string) string {
	for _, a := range args {
		if a == nil {
			continue
		}
		if k, _, r, ok := c.res.IOBlocking(a, nil); ok && r == nil {
			return k
		}
	}
	return kind
}

// ioBlocking reports whether a value handed to an I/O helper blocks when
// its I/O methods are called (see summary.Result.IOBlocking).
func (c *checker) ioBlocking(arg ssa.Value, param types.Type) (kind, op string, ok bool) {
	kind, m, r, ok := c.res.IOBlocking(arg, param)
	if !ok {
		return "", "", false
	}
	if r != nil {
		return kind, m + ", which blocks: " + c.chain(r), true
	}
	return kind, m, true
}

// argName renders the i'th argument of a call (the receiver is 0 for a
// method call) as written.
func (c *checker) argName(call *ssa.CallCommon, i int) string {
	if ce := c.calls.At(call.Pos()); ce != nil {
		args := ce.Args
		if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
			if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
				args = append([]ast.Expr{sel.X}, ce.Args...)
			}
		}
		if i < len(args) {
			return types.ExprString(args[i])
		}
	}
	return summary.ValueName(call.Args[i])
}

// firstBlocking judges a call that can only reach fns (the values a func
// value can hold, the known values of a field): a finding when one of them
// blocks.
func (c *checker) firstBlocking(fns []*ssa.Function, what string, held []lockstate.Held) *finding {
	for _, fn := range fns {
		if cf := c.res.Func(fn); cf != nil && cf.InPlace {
			continue // its body is checked where it runs
		}
		if obj := summary.FuncObject(fn); obj != nil && fn.Parent() == nil {
			if kind, ok := c.res.Catalog.Direct(obj); ok {
				return &finding{category: kind, what: what + ", which is " + summary.FuncName(obj, c.pass.Pkg), held: held}
			}
		}
		if fd := c.blockingSummary(c.res.SummaryOf(fn), what, held); fd != nil {
			return fd
		}
	}
	return nil
}

// firstBlockingMethod judges an interface call that can only dispatch to
// the concrete methods ms.
func (c *checker) firstBlockingMethod(ms []*types.Func, what string, held []lockstate.Held) *finding {
	for _, m := range ms {
		if kind, ok := c.res.Catalog.Direct(m); ok {
			return &finding{category: kind, what: what + ", which is " + summary.FuncName(m, c.pass.Pkg), held: held}
		}
		if fd := c.blockingSummary(c.res.SummaryOfMethod(m), what, held); fd != nil {
			return fd
		}
	}
	return nil
}

func (c *checker) blockingSummary(s *summary.Summary, what string, held []lockstate.Held) *finding {
	r := s.AnyBlock()
	if r == nil {
		return nil
	}
	if hs := c.blockedBy(r, held); len(hs) > 0 {
		return blocksFinding(what+", which blocks: "+c.chain(r), r, hs)
	}
	return nil
}

// blockedBy returns the held locks that a reason affects: all of them,
// except that a sync.Cond wait releases the Cond's own lock, and a callee
// that opens an unlock/relock window releases the caller's lock around the
// operation.
func (c *checker) blockedBy(r *summary.Reason, held []lockstate.Held) []lockstate.Held {
	if r.Join {
		held = summary.JoinBlocked(held, r.JoinTakes)
	}
	if r.CondLock != "" {
		held = withoutReleased(held, r.CondLock)
	}
	for _, class := range r.Released {
		held = withoutReleased(held, class)
	}
	return held
}

// joinHeld returns the held locks that a receive or select waits on: all
// of them, or, for a join with the package's own workers, those the
// workers take.
func (c *checker) joinHeld(instr ssa.Instruction, held []lockstate.Held) []lockstate.Held {
	if takes, ok := c.res.JoinAt(instr); ok {
		return summary.JoinBlocked(held, takes)
	}
	return held
}

// withoutKey returns held without the lock instance key.
func withoutKey(held []lockstate.Held, key string) []lockstate.Held {
	return heldExcept(held, func(h lockstate.Held) bool { return h.Key == key })
}

// withoutReleased returns held without the lock of class that a wait
// releases, when only one held lock has that class. With two (a stage's
// lock and the next stage's, taken hand over hand, the wait on the next
// stage's Cond), the class does not say which one the wait releases, and
// both stay held.
func withoutReleased(held []lockstate.Held, class string) []lockstate.Held {
	n := 0
	for _, h := range held {
		if h.Class == class {
			n++
		}
	}
	if n != 1 {
		return held
	}
	return heldExcept(held, func(h lockstate.Held) bool { return h.Class == class })
}

// heldExcept returns a new slice of the held locks drop does not match.
func heldExcept(held []lockstate.Held, drop func(lockstate.Held) bool) []lockstate.Held {
	var out []lockstate.Held
	for _, h := range held {
		if !drop(h) {
			out = append(out, h)
		}
	}
	return out
}

// chain renders a reason chain with the current package's qualifier dropped.
func (c *checker) chain(r *summary.Reason) string {
	prefix := c.pass.Pkg.Name() + "."
	parts := make([]string, len(r.Chain))
	for i, p := range r.Chain {
		parts[i] = strings.TrimPrefix(p, prefix)
	}
	return strings.Join(parts, " -> ")
}

func (c *checker) calleeName(fn *ssa.Function) string {
	return strings.TrimPrefix(summary.SSAFuncName(fn, nil), c.pass.Pkg.Name()+".")
}
