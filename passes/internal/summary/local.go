package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// site is a call whose callee's summary contributes to the caller's.
type site struct {
	callee   *ssa.Function
	method   *types.Func      // a method of another package, when callee is nil
	args     []ssa.Value      // the callee's parameters in order (nil: unknown)
	bindings []ssa.Value      // a closure's captured values
	released []string         // classes of the caller's locks released at the call
	when     []lockstate.Cond // conditions under which the call runs
	call     *ssa.CallCommon  // the call, when it is one of the function's own
	seen     int              // 1 + the callee summary's version last merged, 0 for none
	// taken lists the classes of the locks the function took itself
	// and holds at the call: a callee's Cond wait that releases a lock
	// of one of them releases the function's own, not its caller's.
	taken []string
	// dying is set for a call on a path to a crash (see noreturn.go), and
	// for code the package supplies to its own exported functions
	// (Origin.Program):
	// only the locks the callee takes count, not what blocks in it.
	dying bool
	// env, when set, says why the call runs only under a switch: an
	// environment variable set, a debug switch on (see envgates.go). What
	// it blocks on is only plausible.
	env string
}

// paramType returns the declared type of the callee's i'th parameter
// (the receiver first), or nil when unknown.
func (st *site) paramType(i int) types.Type {
	switch {
	case st.callee != nil:
		return ParamType(st.callee.Signature, i)
	case st.method != nil:
		return ParamType(st.method.Signature(), i)
	}
	return nil
}

// local is what a function's own instructions say about it, before its
// callees are taken into account.
type local struct {
	call     *ssa.CallCommon // the call being scanned
	blocks   Summary         // only its Blocks
	callback *Reason
	unknown  *Reason
	// releasedAt returns the lock classes released at the instruction
	// being scanned, and whenAt the conditions under which it runs.
	releasedAt func() []string
	whenAt     func() []lockstate.Cond
	// heldAt returns the locks held at the instruction being scanned.
	heldAt func() []lockstate.Held
	// dying is set while a block on a path to a crash is scanned: what
	// blocks or calls back there is left out.
	dying    bool
	env      string // why the block being scanned runs only under a switch, if it does
	params   []calledParam
	invoked  []int // interface-typed parameters whose methods are called
	acquires []string
	takes    []lockstate.Effect
	sends    []*Reason // buffered sends that can fill, by channel class
	sites    []site
	joins    []joinCand // receives and selects that may join workers
}

// A calledParam is a call of a func parameter, with the classes of the
// caller's locks released where it is made.
type calledParam struct {
	index    int
	released []string
	held     []lockstate.Held // the function's own locks held at the call
}

// scan computes the local part of fn's summary.
func (a *analyzer) scan(fn *ssa.Function, flow *lockstate.Result) *local {
	l := &local{}
	name := SSAFuncName(fn, nil)
	var released []string // classes released at the current instruction
	g := a.guardsOf(fn)
	var cur *ssa.BasicBlock
	plausible := "" // why the operation being scanned only may block
	condParam := "" // the receiver's Locker, released here by a Cond of the module's own
	setBlock := func(kind, op string, cond string) {
		if l.dying {
			return
		}
		if cond == "" {
			cond = condParam
		}
		r := &Reason{Kind: kind, Chain: []string{name, op}, CondLock: cond, Released: released, When: g.when(cur)}
		switch {
		case plausible != "":
			r.Plausible, r.Guarded = plausible, true
		case l.env != "":
			r.Plausible, r.Guarded = l.env, true
		}
		l.blocks.addBlock(r)
	}
	// waitOn records a receive or a select, or a join candidate when the
	// other side is on the package's own workers.
	waitOn := func(instr ssa.Instruction, kind, op string) {
		if l.dying {
			return
		}
		if a.startBarrier(fn, instr) {
			return // waits for the goroutines to start, not to work
		}
		if t, ok := a.executorWait(fn, instr); ok {
			// fn's task runs on the executor while fn waits: fn calls
			// it, holding what it holds here.
			l.params = append(l.params, calledParam{index: t.param, released: released, held: ownHeld(l.heldAt())})
			r := &Reason{Kind: kind, Chain: []string{name, op}, Released: released, When: g.when(cur)}
			l.joins = append(l.joins, joinCand{reason: r, instr: instr, workers: t.workers, inbox: t.inbox})
			return
		}
		if ws, escape := a.joinCandidate(fn, instr); ws != nil {
			r := &Reason{Kind: kind, Chain: []string{name, op}, Released: released, When: g.when(cur)}
			l.joins = append(l.joins, joinCand{reason: r, instr: instr, workers: ws, escape: escape})
			return
		}
		setBlock(kind, op, "")
	}
	// mayFill records a send into a buffer that can fill: the channel's
	// receivers decide whether a caller's lock holds them up.
	mayFill := func(ch ssa.Value, op string) {
		if class := flow.IDOf(ch).Class; class != "" && !l.dying {
			l.sends = append(l.sends, &Reason{Kind: "chan", Chain: []string{name, op}, Released: released, When: g.when(cur), Chan: class})
		}
	}
	var curInstr ssa.Instruction
	l.releasedAt = func() []string { return released }
	l.heldAt = func() []lockstate.Held {
		ev, ok := flow.EventAt(curInstr)
		if !ok {
			return nil
		}
		return ev.State.MustHeld()
	}
	l.whenAt = func() []lockstate.Cond { return g.when(cur) }
	for _, b := range fn.Blocks {
		if !flow.Reachable(b) || a.testOnly(fn, b) {
			continue // behind a branch on a false constant, or a test switch
		}
		cur = b
		l.dying = a.dyingAt(fn, b)
		l.env = a.envGatesOf(fn)[b]
		for _, instr := range b.Instrs {
			released, condParam = nil, ""
			curInstr = instr
			if ev, ok := flow.EventAt(instr); ok {
				for _, id := range ev.State.Released {
					if id.Class != "" {
						released = append(released, id.Class)
					}
					if cp := condLikeReleased(fn, id); cp != "" {
						condParam = cp
					}
				}
			}
			for _, h := range a.requestHandlersAt(fn, instr) {
				// The actor's handler answers while fn waits.
				if !l.dying {
					l.call = nil
					l.addSite(site{callee: h, released: released, when: g.when(cur)})
				}
			}
			for _, mc := range a.sentTasks(fn, instr) {
				// The closure runs on the executor while fn waits.
				if task, _ := mc.Fn.(*ssa.Function); task != nil && !l.dying {
					l.call = nil // not a call of fn's own
					l.addSite(site{callee: task, bindings: mc.Bindings, released: released, when: g.when(cur)})
				}
			}
			switch instr := instr.(type) {
			case *ssa.Send:
				drained := DrainedSend(instr)
				if !a.res.BufferedSend(flow, instr.Chan) && !a.bufferedElem(fn, instr.Chan) && !drained {
					if assertedChan(instr.Chan, 0) {
						plausible = assertedChanWhy
					}
					waitOn(instr, "chan", "channel send")
					plausible = ""
				} else if !l.dying && !drained && !TokenReturn(instr) && !a.res.FinalSend(fn, instr) && !a.res.QueueSend(flow, instr.Chan) {
					mayFill(instr.Chan, "channel send")
				}
			case *ssa.UnOp:
				if instr.Op == token.ARROW && !a.readyRecv(fn, flow, instr) && !a.signalledByTask(fn, instr) {
					waitOn(instr, "chan", "channel receive")
				}
			case *ssa.Select:
				if !instr.Blocking {
					break
				}
				if ch := a.bufferedCase(fn, flow, instr); ch != nil {
					mayFill(ch, "select") // like a buffered send
				} else {
					waitOn(instr, "select", "select")
				}
			case *ssa.Call:
				if IsWaitGroupWait(instr.Common()) {
					// A join when the package's quick workers are
					// the only ones that call Done.
					waitOn(instr, catalog.Wait, FuncName(FuncObject(instr.Call.StaticCallee()), nil))
					continue
				}
				if NotStartedWait(instr.Common(), instr) {
					continue // nothing to wait for
				}
				a.scanCall(fn, name, instr, flow, l, setBlock, false)
			case *ssa.Defer:
				a.scanCall(fn, name, instr, flow, l, setBlock, true)
			}
		}
	}
	return l
}

func (a *analyzer) scanCall(fn *ssa.Function, name string, instr ssa.CallInstruction, flow *lockstate.Result, l *local, setBlock func(kind, op, cond string), deferred bool) {
	c := instr.Common()
	l.call = c
	if once, ok := OnceDo(c); ok {
		// Do takes the Once while its function runs (onces.go).
		if id := flow.IDOf(once); nameable(id) {
			l.takes = append(l.takes, lockstate.Effect{Lock: id, Mode: lockstate.Once, When: l.whenAt(), Outside: l.releasedAt()})
		}
	}
	op := flow.OpOf(c)
	switch op.Kind {
	case lockstate.Acquire, lockstate.TryAcq:
		id := flow.IDOf(op.Recv)
		if class := acquireClass(id.Class, op.Mode); class != "" {
			l.acquires = append(l.acquires, class)
		}
		// A lock taken back (defer mu.RLock()) is not a lock the caller
		// must not hold. One taken inside a window where the caller's
		// lock is released is not either, but it is taken while the
		// caller's other locks are held: the take keeps the window's
		// classes, its own among them, outside (removeAndWait drops the
		// global lock, sleeps and takes it back under the device's).
		if op.Kind == lockstate.Acquire && nameable(id) && !deferred {
			l.takes = append(l.takes, lockstate.Effect{Lock: id, Mode: op.Mode, When: l.whenAt(), Outside: l.releasedAt()})
		}
		return
	case lockstate.Release:
		return
	case lockstate.CondWait:
		cl := a.condLock(flow, op.Recv)
		if cl == "" {
			cl = condOfParam(fn, op.Recv) // the caller's Cond: its argument tells
		}
		if slices.Contains(takenClasses(l.heldAt()), cl) {
			cl = "" // the function's own lock: its callers' stay held
		}
		setBlock(catalog.Wait, "(*sync.Cond).Wait", cl)
		return
	}
	if c.IsInvoke() {
		// Only the I/O methods make the caller's value matter: a helper
		// that asks a conn for its address or its raw fd does no I/O
		// on it.
		if p, ok := c.Value.(*ssa.Parameter); ok && slices.Contains(ioMethods, c.Method.Name()) {
			for i, q := range fn.Params {
				if q == p {
					l.invoked = append(l.invoked, i)
				}
			}
		}
		if ShortReplyInvoke(c) {
			return // buffered by net/http until the handler returns
		}
		if kind, ok := a.cat.Blocking(c.Method); ok {
			setBlock(kind, IfaceMethodName(c.Value.Type(), c.Method, nil), "")
			return
		}
		d := a.dispatch(flow, c)
		if d.Open == "" {
			args := append([]ssa.Value{c.Value}, c.Args...)
			for _, m := range d.Methods {
				st := a.methodSite(m, args, l.releasedAt())
				st.when = l.whenAt()
				l.addSite(st)
			}
			return
		}
		if l.unknown == nil && !l.dying && !catalog.Cheap(c.Value.Type(), c.Method) && !QuietMethod(c.Method) {
			l.unknown = &Reason{Kind: "interface", Chain: []string{name, "interface method " + IfaceMethodName(c.Value.Type(), c.Method, nil)},
				Released: l.releasedAt(), Plausible: d.Open}
		}
		return
	}
	if y := YieldArg(c); y != nil {
		// A range-over-func loop: the body runs here, inside the iterator.
		l.addSite(site{callee: y, released: l.releasedAt(), when: l.whenAt()})
		if StaticCallee(c) == nil {
			return
		}
	}
	callee := StaticCallee(c)
	if callee == nil {
		if flow.IsUnlocker(c.Value) {
			return // the unlock function a lock wrapper returned
		}
		if _, ok := c.Value.(*ssa.Builtin); ok {
			return
		}
		if n := a.sealedFunc(c.Value.Type()); n != nil {
			// Every value of the type is one of the package's own
			// conversions: when they are all decided, judge those
			// functions here.
			if o := a.sealedFuncOrigin(n); o.Closed() {
				for _, g := range o.Targets {
					l.addSite(site{callee: g, args: o.TargetArgs(g, c.Args), released: l.releasedAt(), when: l.whenAt()})
				}
				return
			}
		}
		if p, ok := c.Value.(*ssa.Parameter); ok {
			// The caller judges what it passes. A deferred call runs
			// at return, outside the window the locks are released in
			// here.
			if i := slices.Index(fn.Params, p); i >= 0 {
				cp := calledParam{index: i}
				if !deferred {
					cp.released = l.releasedAt()
					cp.held = ownHeld(l.heldAt())
				}
				l.params = append(l.params, cp)
			}
			return
		}
		o := a.origin(fn, c.Value, 0)
		for _, g := range o.Targets {
			l.addSite(site{callee: g, args: o.TargetArgs(g, c.Args), bindings: o.TargetBindings(g), released: l.releasedAt(), when: l.whenAt()})
		}
		for _, g := range o.Program {
			// Only the locks it takes count (see Origin.Program).
			l.addSite(site{callee: g, args: o.TargetArgs(g, c.Args), released: l.releasedAt(), when: l.whenAt()})
			l.sites[len(l.sites)-1].dying = true
		}
		r := &Reason{Kind: "callback", Chain: []string{name, "func value " + ValueName(c.Value)}, Released: l.releasedAt(), When: l.whenAt()}
		switch {
		case o.Supplied != "" && Computes(c.Value.Type()):
			r.Plausible = ComputesWhy(c.Value.Type())
			l.setCallback(r)
		case o.Supplied != "" && !c.IsInvoke() && a.appliedToFresh(fn, instr):
			r.Plausible = AppliedToFreshWhy
			l.setCallback(r)
		case o.Supplied != "":
			l.setCallback(r)
		case o.Unknown != "":
			r.Plausible = "the func value can be " + o.Unknown
			l.setCallback(r)
		}
		return
	}
	args := c.Args
	if m, iface, ok := BoundMethod(callee); ok {
		if iface {
			l.setCallback(&Reason{Kind: "callback", Chain: []string{name, "method value " + ValueName(c.Value)}, Released: l.releasedAt(),
				Plausible: "a method value of an interface"})
			return
		}
		if m != nil {
			callee, args = m, MethodArgs(c)
		}
	}
	if obj := FuncObject(callee); obj != nil {
		if NoWaitCall(obj, args) || a.stackSourceRead(obj, args) {
			return
		}
		if kind, ok := a.cat.Blocking(obj); ok {
			setBlock(kind, FuncName(obj, nil), "")
			return
		}
		if a.cat.Quiet(obj) {
			return
		}
		if a.cat.ResolvesNames(obj) {
			if !l.dying {
				// Guarded: a call that surely waits replaces it.
				l.blocks.addBlock(&Reason{Kind: catalog.Net, Chain: []string{name, FuncName(obj, nil)}, Released: l.releasedAt(), When: l.whenAt(),
					Guarded: true, Plausible: catalog.ResolvesNamesWhy})
			}
			return
		}
	}
	var bindings []ssa.Value
	if mc, ok := c.Value.(*ssa.MakeClosure); ok && len(args) == len(c.Args) {
		bindings = mc.Bindings
	}
	l.addSite(site{callee: callee, args: args, bindings: bindings, released: l.releasedAt(), when: l.whenAt()})
}

// addSite records a call site, on a path to a crash if the block being
// scanned is one.
func (l *local) addSite(st site) {
	st.dying = l.dying
	st.env = l.env
	st.call = l.call
	if l.heldAt != nil {
		st.taken = takenClasses(l.heldAt())
	}
	l.sites = append(l.sites, st)
}

// takenClasses returns the classes of the locks of held that the function
// took itself: neither its caller's (inherited) nor released and taken
// back.
func takenClasses(held []lockstate.Held) []string {
	var out []string
	for _, h := range held {
		if !h.Inherited && !h.Restored && h.Class != "" && !slices.Contains(out, h.Class) {
			out = append(out, h.Class)
		}
	}
	return out
}

// setCallback records r as the function's callback reason, a proven one
// over a plausible one. Two callbacks of one kind make one reason under
// the conditions both share: a func value called on two branches
// (only if oldObj != nil, only if newObj != nil) may run whenever either
// holds, so neither condition rules it out alone.
func (l *local) setCallback(r *Reason) {
	if l.dying {
		return
	}
	l.callback = mergeCallback(l.callback, r)
}

// mergeCallback returns the callback reason for a function that has old
// (or nil) and r.
func mergeCallback(old, r *Reason) *Reason {
	switch {
	case old == nil:
		return r
	case (old.Plausible == "") != (r.Plausible == ""):
		if r.Plausible == "" {
			return r
		}
		return old
	}
	var when []lockstate.Cond
	for _, c := range old.When {
		if slices.Contains(r.When, c) {
			when = append(when, c)
		}
	}
	if len(when) == len(old.When) {
		return old
	}
	out := *old
	out.When = when
	return &out
}

// methodSite is a call site of a concrete method reached through an
// interface: a function of this package, or a method known by its object
// (and its facts).
func (a *analyzer) methodSite(m *types.Func, args []ssa.Value, released []string) site {
	if m.Pkg() == a.pkg.Pkg {
		if fn := a.pkg.Prog.FuncValue(m.Origin()); fn != nil {
			return site{callee: fn, args: args, released: released}
		}
	}
	return site{method: m, args: args, released: released}
}

// StaticCallee returns the function or closure a call invokes directly, or
// nil for a call of a func value or an interface method.
func StaticCallee(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	return ClosureFn(c.Value)
}

// FuncObject is the declared function behind an SSA function: the generic
// origin of an instantiation, the method of a wrapper.
func FuncObject(fn *ssa.Function) *types.Func {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// ValueName renders a func value for messages: "job", "c.onEvict",
// "h.ServeHTTP" for a method value.
func ValueName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return ValueName(v.X)
		}
	case *ssa.FieldAddr:
		return ValueName(v.X) + "." + fieldName(v.X.Type(), v.Field)
	case *ssa.Field:
		return ValueName(v.X) + "." + fieldName(v.X.Type(), v.Field)
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Global:
		return v.Name()
	case *ssa.Alloc:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.Phi:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok && fn.Synthetic != "" && len(v.Bindings) == 1 {
			// A method value x.M is a closure over x of the bound wrapper.
			return ValueName(v.Bindings[0]) + "." + fn.Object().Name()
		}
	case *ssa.Lookup:
		return ValueName(v.X) + "[k]"
	case *ssa.IndexAddr:
		return ValueName(v.X) + "[i]"
	case *ssa.Index:
		return ValueName(v.X) + "[i]"
	case *ssa.Extract:
		return ValueName(v.Tuple)
	case *ssa.Call:
		if callee := v.Call.StaticCallee(); callee != nil {
			return callee.Name() + "()"
		}
		if v.Call.IsInvoke() {
			return v.Call.Method.Name() + "()"
		}
	case *ssa.TypeAssert:
		return ValueName(v.X)
	case *ssa.ChangeType:
		return ValueName(v.X)
	}
	return "value"
}

func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return "field"
}

// nameable reports whether a lock can be named by a function's caller.
func nameable(id lockstate.ID) bool {
	return id.Root == lockstate.RootParam || id.Root == lockstate.RootFree || id.Root == lockstate.RootGlobal
}

// ownHeld keeps, of the locks held at a call of a func parameter, those
// the function took itself on an object its callers can name (below a
// parameter, or package-level): what a visitor holds while it calls the
// func it is given.
func ownHeld(held []lockstate.Held) []lockstate.Held {
	var out []lockstate.Held
	for _, h := range held {
		if h.Inherited || h.Restored || h.Class == "" {
			continue
		}
		if h.Root == lockstate.RootParam || h.Root == lockstate.RootGlobal {
			out = append(out, h)
		}
	}
	return out
}
