package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// propagate combines each function's own operations with its callees'
// summaries, to a fixpoint. Summaries only grow (a reason appears, a set
// gains members), so the worklist terminates; a function is revisited only
// when one of its callees changed.
func (a *analyzer) propagate(funcs []*ssa.Function) {
	locals := make(map[*ssa.Function]*local, len(funcs))
	callers := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range funcs {
		*a.at = fn.Pos()
		l := a.scan(fn, a.flows[fn])
		locals[fn] = l
		s := a.funcs[fn].Summary
		if !a.quiet {
			s.Blocks, s.Callback, s.Unknown = l.blocks.Blocks, l.callback, l.unknown
		}
		for _, p := range l.params {
			s.addParam(p.index, p.released)
			s.addHeldAtParam(p.index, p.held)
		}
		for _, p := range l.invoked {
			s.addInvokedParam(p)
		}
		for _, c := range l.acquires {
			s.addAcquire(c)
		}
		if !a.quiet {
			for _, t := range l.takes {
				s.addTake(t)
			}
			for _, r := range l.sends {
				s.addSend(r)
			}
		}
		for _, st := range l.sites {
			if st.callee == nil {
				continue // another package's method: its summary is a fact
			}
			callee := a.declared(st.callee)
			if _, ok := a.funcs[callee]; ok {
				callers[callee] = append(callers[callee], fn)
			}
			for _, arg := range st.args {
				// The func values it hands over, a method value's
				// method included: fn merges what they do.
				if g, _ := CalledFn(arg); g != nil {
					if g = a.declared(g); a.funcs[g] != nil {
						callers[g] = append(callers[g], fn)
					}
				}
			}
		}
	}

	work := append([]*ssa.Function(nil), funcs...)
	queued := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		queued[fn] = true
	}
	changed := func(fn *ssa.Function) {
		a.funcs[fn].Summary.version++
		for _, c := range callers[fn] {
			if !queued[c] {
				queued[c] = true
				work = append(work, c)
			}
		}
	}
	drain := func() {
		for len(work) > 0 {
			fn := work[0]
			work = work[1:]
			queued[fn] = false
			if a.combine(fn, locals[fn]) {
				changed(fn)
			}
		}
	}
	*a.at = token.NoPos
	drain()
	// Joins with the package's workers are decided once the workers'
	// summaries are final, callees first: a wait of a worker's own (its
	// stop waiting for its loops) is decided, and has reached the worker's
	// summary, before the worker is judged quick or not. A waiter that
	// does not call its workers (a Close waiting for the goroutines Add
	// started) can come first, before what the workers call is decided:
	// the joins are decided again, with the summaries the first pass
	// left, until nothing changes. Deciding only adds waits (a plain
	// reason replaces a join), so a worker found slow stays slow.
	for range maxJoinPasses {
		a.quick = map[*ssa.Function]bool{}
		again := false
		for _, scc := range a.sccs {
			for _, fn := range scc {
				*a.at = fn.Pos()
				if l := locals[fn]; l != nil && len(l.joins) > 0 && a.decideJoins(fn, l, locals) {
					changed(fn)
					drain()
					again = true
				}
			}
		}
		if !again {
			break
		}
	}
	*a.at = token.NoPos
	drain()
}

// combine folds fn's callees' summaries into fn's, and reports whether it
// changed.
func (a *analyzer) combine(fn *ssa.Function, l *local) bool {
	s := a.funcs[fn].Summary
	name := &lazyName{fn: fn}
	changed := false
	// Callbacks are not propagated: a caller reports a call of a function
	// that itself calls a func field (one level), but chains through
	// deeper helpers end in the package's own dispatch tables and hooks
	// (encoders' op tables, cipher-suite constructors) far more often than
	// in foreign code.
	for i := range l.sites {
		st := &l.sites[i]
		var cs *Summary
		var calleeName *lazyName
		if st.callee != nil {
			callee := a.declared(st.callee)
			cs = a.summary(callee)
			calleeName = &lazyName{fn: callee}
		} else {
			cs = a.summaryOfObj(st.method)
			calleeName = &lazyName{obj: st.method}
		}
		if cs != nil && st.seen == cs.version+1 {
			// The callee has not changed since this site was last
			// merged: only the func values it calls may have.
			changed = a.foldArgTakes(fn, s, cs, st) || changed
			if st.dying {
				continue
			}
			changed = a.combineFuncArgs(fn, s, name, calleeName, cs, *st) || changed
			continue
		}
		if cs != nil {
			st.seen = cs.version + 1
		}
		if !st.dying && a.mergeBlocks(fn, s, name, cs, *st) {
			changed = true
		}
		if cs != nil {
			changed = a.foldTakes(fn, s, cs.Takes, st.args, st.bindings, st, st.released) || changed
			changed = a.foldArgTakes(fn, s, cs, st) || changed
		}
		// Interface values passed on to a callee that calls their methods:
		// a blocking reader or writer (fmt.Fprintf(conn, ...)) blocks here.
		for i, arg := range st.args {
			if cs == nil || st.dying || !cs.InvokesParam(i) || arg == nil {
				continue
			}
			if !a.quiet {
				if kind, m, inner, ok := a.ioBlocking(arg, st.paramType(i)); ok {
					r := &Reason{Kind: kind, Chain: []string{name.get(), calleeName.get(), m}, Released: st.released, When: st.when}
					if inner != nil {
						r = inner.extend(calleeName.get()).extend(name.get())
						r.Released, r.When = st.released, st.when
					}
					if s.addBlock(r) {
						changed = true
					}
				}
			}
			if p, ok := arg.(*ssa.Parameter); ok {
				for j, q := range fn.Params {
					if q == p && s.addInvokedParam(j) {
						changed = true
					}
				}
			}
		}
		if cs != nil && !st.dying {
			changed = a.combineFuncArgs(fn, s, name, calleeName, cs, *st) || changed
		}
	}
	return changed
}

// foldTakes folds into s, the summary of fn, the takes of a function run
// by the call at st (the callee, or a func value it calls), rebased onto
// the caller's values: args, the function's parameters in order (nil where
// the caller does not know them), and bindings, a closure's captured
// values. released are the classes of fn's locks released where the
// function runs. It reports whether s changed.
func (a *analyzer) foldTakes(fn *ssa.Function, s *Summary, takes []lockstate.Effect, args, bindings []ssa.Value, st *site, released []string) bool {
	changed := false
	var roots rootCache
	for _, t := range takes {
		holds, when, _ := condsHold(fn, a.judgedAt(st), t.When, args, bindings)
		if !holds {
			continue // not taken with these arguments
		}
		when = append(slices.Clip(st.when), when...)
		var root lockstate.ID
		fl, v, ok := forwardField(fn, t.Lock, args) // below a field of an object fn has just built
		if ok {
			t.Lock, root = fl, a.flows[fn].IDOf(v)
		} else if root, ok = roots.of(a.flows[fn], t.Lock, args, bindings); !ok {
			continue
		}
		// A lock taken inside the caller's own unlock/relock
		// window is not one the caller's caller must not hold.
		outside := append(slices.Clip(t.Outside), released...)
		if t.Lock.Class == "" && t.Lock.Root == lockstate.RootParam {
			// A lock wrapper's lock has the class of the caller's
			// argument (see lockstate.LockWrapper): the caller acquires it.
			if class := acquireClass(rebaseOnto(t.Lock, root).Class, t.Mode); class != "" {
				if s.addAcquire(class) {
					changed = true
				}
			}
		}
		// Most takes are recorded already: rebase the lock
		// (a handful of strings) only if it can change s.
		prefix, path := root.Key, t.Lock.Path
		if t.Lock.Root == lockstate.RootGlobal {
			prefix, path = t.Lock.Key, ""
		}
		if !s.takeChanges(prefix, path, root.Root, t.Mode, when, outside) {
			continue
		}
		id := rebaseOnto(t.Lock, root)
		if nameable(id) && !slices.Contains(released, id.Class) && s.addTake(lockstate.Effect{Lock: id, Mode: t.Mode, When: when, Outside: outside}) {
			changed = true
		}
	}
	return changed
}

// A lazyName is the name of a function (fn, or else obj) for reasons
// chains, rendered on first use: combine runs again at every change of a
// callee's summary, and most runs add no reason.
type lazyName struct {
	fn   *ssa.Function
	obj  *types.Func
	name string
}

func (n *lazyName) get() string {
	if n.name == "" {
		if n.fn != nil {
			n.name = SSAFuncName(n.fn, nil)
		} else {
			n.name = FuncName(n.obj, nil)
		}
	}
	return n.name
}

// combineFuncArgs folds into s, the summary of fn, what the func values fn
// passes to a callee that calls them do, and reports whether s changed.
func (a *analyzer) combineFuncArgs(fn *ssa.Function, s *Summary, name, calleeName *lazyName, cs *Summary, st site) bool {
	if len(cs.CallsParams) == 0 {
		return false
	}
	changed := false
	for i, arg := range st.args {
		if !cs.CallsParam(i) || arg == nil {
			continue
		}
		// The callee may call it with locks of its caller released.
		released := unionClasses(st.released, cs.ReleasedAt(i))
		if p, ok := arg.(*ssa.Parameter); ok {
			for j, q := range fn.Params {
				if q == p && s.addParam(j, released) {
					changed = true
				}
			}
			continue
		}
		if a.quiet {
			continue
		}
		o := a.origin(fn, arg, 0)
		for _, g := range o.Targets {
			if a.mergeBlocks(fn, s, name, a.summary(g), site{args: o.TargetArgs(g, nil), bindings: o.TargetBindings(g), released: released, when: st.when}) {
				changed = true
			}
		}
		r := &Reason{Kind: "callback", Chain: []string{name.get(), calleeName.get(), "func value " + ValueName(arg)}}
		if o.Supplied == "" {
			if o.Unknown == "" {
				continue
			}
			r.Plausible = "the func value can be " + o.Unknown
		}
		r.When = st.when
		if m := mergeCallback(s.Callback, r); m != s.Callback {
			s.Callback = m
			changed = true
		}
	}
	return changed
}

// mergeBlocks folds into s, the summary of fn, the block reasons and lock
// classes of a callee c called at st, and reports whether s changed.
func (a *analyzer) mergeBlocks(fn *ssa.Function, s *Summary, name *lazyName, c *Summary, st site) bool {
	if c == nil {
		return false
	}
	if a.quiet {
		c = &Summary{Acquires: c.Acquires}
	}
	changed := false
	for _, b := range c.Blocks {
		ok, when, dropped := condsHold(fn, a.judgedAt(&st), b.When, st.args, st.bindings)
		if !ok {
			continue // cannot happen with these arguments
		}
		when = append(slices.Clip(st.when), when...)
		guarded := b.Guarded || dropped || st.env != ""
		// The callee's Cond lock resolved here: a lock fn took itself
		// releases nothing of its callers', so the reason holds them all.
		condLock := a.condLockAt(fn, a.flows[fn], b.CondLock, st.args)
		released := b.Released
		if argL := condArgL(b.CondLock, st.args); slices.Contains(st.taken, condLock) || slices.Contains(st.taken, argL) {
			// Taken by fn itself, by name or through the Cond's L: the
			// wait releases nothing of fn's callers'.
			condLock = ""
			released = slices.DeleteFunc(slices.Clone(released), func(c string) bool { return c == argL })
		}
		releases := condLock != "" || len(released) > 0 || len(st.released) > 0
		plausible := b.Plausible != "" || st.env != ""
		if i, add := s.blockEffect(when, guarded, releases, plausible, b.strength(), len(b.Chain)+1); i < 0 && !add {
			continue // s has as good a reason: no new chain
		}
		r := b.extend(name.get())
		r.When = when
		r.Guarded = guarded
		r.CondLock = condLock
		if st.env != "" && r.Plausible == "" {
			r.Plausible, r.Guarded = st.env, true
		}
		// The caller's own locks released around this call are
		// released around the operation too.
		r.Released = append(slices.Clip(released), st.released...)
		if s.addBlock(r) {
			changed = true
		}
	}
	for _, b := range c.Sends {
		ok, when, dropped := condsHold(fn, a.judgedAt(&st), b.When, st.args, st.bindings)
		if !ok || dropped || len(b.Chain)+1 > MaxChain {
			continue
		}
		r := b.extend(name.get())
		r.When = append(slices.Clip(st.when), when...)
		r.Released = append(slices.Clip(r.Released), st.released...)
		if s.addSend(r) {
			changed = true
		}
	}
	for _, cl := range c.Acquires {
		if s.addAcquire(cl) {
			changed = true
		}
	}
	return changed
}

// ClosureFn returns the function a func value denotes, if it is a function
// or a closure (not a func-typed variable).
func ClosureFn(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	case *ssa.ChangeType:
		return ClosureFn(v.X)
	}
	return nil
}

// IsNil reports whether v is the nil constant.
func IsNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// RebaseTake maps a callee's lock, named relative to its parameters, free
// variables or globals, onto the caller's identity for the call's arguments
// and the closure's bindings.
func RebaseTake(flow *lockstate.Result, l lockstate.ID, args, bindings []ssa.Value) (lockstate.ID, bool) {
	if fl, v, ok := forwardField(flow.Fn, l, args); ok {
		return rebaseOnto(fl, flow.IDOf(v)), true
	}
	root, ok := takeRoot(flow, l, args, bindings)
	if !ok {
		return lockstate.ID{}, false
	}
	return rebaseOnto(l, root), true
}

// takeRoot returns the caller's identity of the root of a callee's lock l:
// the argument or binding it hangs off, or l itself for a package-level
// lock.
func takeRoot(flow *lockstate.Result, l lockstate.ID, args, bindings []ssa.Value) (lockstate.ID, bool) {
	switch l.Root {
	case lockstate.RootParam:
		if l.RootIndex < len(args) && args[l.RootIndex] != nil {
			return flow.IDOf(args[l.RootIndex]), true
		}
	case lockstate.RootFree:
		if l.RootIndex < len(bindings) && bindings[l.RootIndex] != nil {
			return flow.IDOf(bindings[l.RootIndex]), true
		}
	case lockstate.RootGlobal:
		return l, true
	}
	return lockstate.ID{}, false
}

// rootCache memoises takeRoot for the takes of one callee at one call
// site: most hang off one argument (the receiver), whose identity is a few
// new strings each time.
type rootCache struct {
	n    int
	keys [4]rootKey
	ids  [4]lockstate.ID
	oks  [4]bool
}

type rootKey struct {
	kind  lockstate.RootKind
	index int
}

func (c *rootCache) of(flow *lockstate.Result, l lockstate.ID, args, bindings []ssa.Value) (lockstate.ID, bool) {
	if l.Root == lockstate.RootGlobal {
		return l, true // the root is l itself
	}
	k := rootKey{l.Root, l.RootIndex}
	for i := range c.n {
		if c.keys[i] == k {
			return c.ids[i], c.oks[i]
		}
	}
	id, ok := takeRoot(flow, l, args, bindings)
	if c.n < len(c.keys) {
		c.keys[c.n], c.ids[c.n], c.oks[c.n] = k, id, ok
		c.n++
	}
	return id, ok
}

// rebaseOnto maps l onto root, as takeRoot returned it.
func rebaseOnto(l, root lockstate.ID) lockstate.ID {
	if l.Root == lockstate.RootGlobal {
		return l
	}
	return l.Rebase(root)
}

// CallEffects returns the static callee of a call and the given effects of
// its summary (chosen by pick: its Takes, its Effects), rebased onto the
// call's arguments and the closure's bindings, with those of the func
// values the callee calls (once.Do(h.loadAll) takes what loadAll takes).
// Closures invoked in place are checked in their caller's context, so
// they have none here.
func (r *Result) CallEffects(flow *lockstate.Result, c *ssa.CallCommon, pick func(*Summary) []lockstate.Effect) (*ssa.Function, []lockstate.Effect) {
	callee, args, bindings := callTarget(c)
	if callee == nil {
		return nil, nil
	}
	if f := r.Func(callee); f != nil && f.InPlace {
		return callee, nil
	}
	s := r.SummaryOf(callee)
	if s == nil {
		return callee, nil
	}
	out := effectsAt(flow, pick(s), args, bindings)
	for _, fa := range calledArgs(s, args) {
		if f := r.Func(fa.fn); f != nil && f.InPlace {
			continue // a range-over-func body, checked where it is written
		}
		g := r.SummaryOf(fa.fn)
		if g == nil {
			continue
		}
		// The callee may run it with some of the caller's locks
		// released (an unlock/relock window around the call).
		released := s.ReleasedAt(fa.param)
		for _, e := range effectsAt(flow, pick(g), fa.args, fa.bindings) {
			e.Outside = unionClasses(e.Outside, released)
			out = append(out, e)
		}
	}
	return callee, out
}

// callTarget returns the function a static call runs, with its
// arguments in parameter order and a closure's captured values: a method
// value called (f := s.count; f()) is the method, its bound receiver the
// first argument. callee is nil for a dynamic call.
func callTarget(c *ssa.CallCommon) (callee *ssa.Function, args, bindings []ssa.Value) {
	callee = StaticCallee(c)
	if callee == nil {
		return nil, nil, nil
	}
	args = c.Args
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	if m, iface, ok := BoundMethod(callee); ok && !iface && m != nil && len(bindings) == 1 {
		callee, args, bindings = m, MethodArgs(c), nil
	}
	return callee, args, bindings
}

// An ArgUnder is a func value that a call hands to a callee which calls
// it while holding locks of its own (Summary.HeldAtParams): those locks,
// and what the func value takes, both rebased onto the caller's values.
type ArgUnder struct {
	Held  []lockstate.Held
	Takes []lockstate.Effect
}

// ArgsUnderCallee returns the func values the call c of flow's function
// hands to a callee that runs them under its own locks: a visitor that
// locks its collection and calls the func it is given, handed a func
// that locks the collection again.
func (r *Result) ArgsUnderCallee(flow *lockstate.Result, c *ssa.CallCommon) []ArgUnder {
	callee, args, bindings := callTarget(c)
	if callee == nil {
		return nil
	}
	s := r.SummaryOf(callee)
	if s == nil || len(s.HeldAtParams) == 0 {
		return nil
	}
	var out []ArgUnder
	for _, fa := range calledArgs(s, args) {
		held := s.HeldAt(fa.param)
		if len(held) == 0 {
			continue
		}
		if f := r.Func(fa.fn); f != nil && f.InPlace {
			continue // a range-over-func body, checked where it is written
		}
		g := r.SummaryOf(fa.fn)
		if g == nil {
			continue
		}
		takes := effectsAt(flow, Takes(g), fa.args, fa.bindings)
		if len(takes) == 0 {
			continue
		}
		var under []lockstate.Held
		for _, h := range held {
			if e, ok := effectAt(flow, lockstate.Effect{Lock: h.ID, Mode: h.Mode}, args, bindings); ok {
				h.ID = e.Lock
				under = append(under, h)
			}
		}
		if len(under) > 0 {
			out = append(out, ArgUnder{Held: under, Takes: takes})
		}
	}
	return out
}

// effectsAt rebases effects of a function called in flow's function onto
// the call's values: args, the function's parameters in order, and
// bindings, a closure's captured values. Effects that cannot happen with
// those arguments, or hang off values the caller does not know, are left
// out.
func effectsAt(flow *lockstate.Result, effects []lockstate.Effect, args, bindings []ssa.Value) []lockstate.Effect {
	var out []lockstate.Effect
	for _, e := range effects {
		if e, ok := effectAt(flow, e, args, bindings); ok {
			out = append(out, e)
		}
	}
	return out
}

// effectAt is one effect of effectsAt: e rebased onto the call's values,
// unless its conditions rule it out or its lock cannot be named here.
func effectAt(flow *lockstate.Result, e lockstate.Effect, args, bindings []ssa.Value) (lockstate.Effect, bool) {
	if holds, _, _ := condsHold(flow.Fn, judged{}, e.When, args, bindings); !holds {
		return e, false // not with these arguments
	}
	id, ok := RebaseTake(flow, e.Lock, args, bindings)
	if !ok {
		return e, false
	}
	e.Lock, e.When = id, nil
	return e, true
}

// Takes picks the locks among a summary's Takes, for CallEffects and for
// every reader of Takes outside the propagation: a sync.Once's take
// (lockstate.Once) is no lock a caller holds or orders, and only
// OnceTakes picks it.
func Takes(s *Summary) []lockstate.Effect { return takesOf(s.Takes, false) }

// OnceTakes picks the sync.Onces among a summary's Takes (onces.go).
func OnceTakes(s *Summary) []lockstate.Effect { return takesOf(s.Takes, true) }

// takesOf returns the takes of the Onces (once) or of the locks; Takes
// holds no Once most of the time, and is then returned as it is.
func takesOf(takes []lockstate.Effect, once bool) []lockstate.Effect {
	n := 0
	for _, t := range takes {
		if t.Mode == lockstate.Once {
			n++
		}
	}
	switch {
	case n == 0 && !once:
		return takes
	case n == 0 || n == len(takes) && !once:
		return nil
	case n == len(takes):
		return takes
	}
	out := make([]lockstate.Effect, 0, len(takes))
	for _, t := range takes {
		if (t.Mode == lockstate.Once) == once {
			out = append(out, t)
		}
	}
	return out
}

// Releases picks the releases among a summary's Effects, for CallEffects.
func Releases(s *Summary) []lockstate.Effect {
	var out []lockstate.Effect
	for _, e := range s.Effects {
		if e.Release {
			out = append(out, e)
		}
	}
	return out
}

// maxJoinPasses bounds the passes that decide joins: each pass after the
// first only turns joins back into waits, which nested workers rarely
// need more than once.
const maxJoinPasses = 3
