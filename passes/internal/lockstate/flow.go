package lockstate

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An Effect is what a call does to the caller's locks: a lock wrapper such as
// func (c *Cache) lock() { c.mu.Lock() } returns holding (*Cache).mu of its
// receiver. The lock is identified relative to a parameter, a free variable or
// a global, so that it can be rebased onto the caller's arguments.
type Effect struct {
	Lock    ID
	Release bool
	Mode    Mode
	// Returned is set on a release that the function does not perform
	// but returns as its result, a func value such as mu.Unlock: the
	// caller releases the lock when it calls (or defers) the result.
	Returned bool
	// When lists conditions on the parameters that must all hold for the
	// effect to happen (for the Takes of a summary: "locks c.mu only if
	// !hasLock").
	When []Cond
	// Outside lists, for the Takes of a summary, the classes of the
	// caller's locks that are released where the lock is taken (a *Locked
	// helper that unlocks its caller's lock first): a caller holding only
	// those does not hold them across the acquisition.
	Outside []string
	// Forever is set on an acquisition of a lock that nothing can release
	// once the function has returned with it (a shutdown gate that leaves
	// its unexported mutex locked): its callers hold it for ever.
	Forever bool
	// Once is set on a Returned release made through a sync.Once (func()
	// { once.Do(l.Unlock) }): only the first call of the returned func
	// releases the lock.
	Once bool
}

// Config configures the analysis of one function.
type Config struct {
	// Effects returns the lock effects of a call to callee, or nil.
	Effects func(callee *ssa.Function) []Effect
	// Entry is the held set at entry, for a closure invoked in place while
	// its caller holds locks. Entries are marked Inherited.
	Entry []Held
	// Free gives, for a closure analysed in its caller's context, the
	// caller's identity of each captured variable.
	Free []ID
	// Conds gives the lock that the L of each Cond field stands for.
	Conds CondLockers
	// Visit, if set, is called once for every instruction of the
	// function's reachable blocks with the locks held just before it.
	Visit func(instr ssa.Instruction, s State)
}

// An Event is an instruction executed while at least one lock may be held,
// with the held set just before it.
type Event struct {
	Instr ssa.Instruction
	State State
}

// Result is the lock state of one function.
type Result struct {
	Fn     *ssa.Function
	Events []Event
	// Exit is the function's net effect on locks its caller can name.
	Exit []Effect

	ident   identifier
	byInstr map[ssa.Instruction]int
	// out holds each reachable block's state after its last instruction,
	// by block index, and tries the TryLock results its If may test
	// (EdgeState).
	out   []State
	tries map[ssa.Value]tryLock
	// byEdge holds, for a return whose block the paths reach with
	// different must-held locks, the state at the return along each of
	// the block's predecessor edges (ReturnAlong).
	byEdge map[*ssa.Return][]EdgeReturn
	// unlockers maps func values that release a lock when called (the
	// result of a wrapper returning mu.Unlock) to that lock.
	unlockers map[ssa.Value]ID
	// onceUnlockers flags the unlockers that release only on their first
	// call (Effect.Once); unlockModes holds the side of an RWMutex an
	// unlocker releases.
	onceUnlockers map[ssa.Value]bool
	unlockModes   map[ssa.Value]Mode
	reachable     []bool // by block index
	// renames holds, by block index and successor, the locks renamed to
	// φ-nodes along each edge (phis.go).
	renames map[[2]int][]rename
}

// IsUnlocker reports whether calling the func value v releases a lock: it
// is the unlock function returned by a lock wrapper.
func (r *Result) IsUnlocker(v ssa.Value) bool {
	_, ok := r.unlockers[v]
	return ok
}

// IDOf returns the identity, within the analysed function, of the lock whose
// address or interface value is v.
func (r *Result) IDOf(v ssa.Value) ID { return r.ident.of(v) }

// EventAt returns the event for instr, if a lock may be held there.
func (r *Result) EventAt(instr ssa.Instruction) (Event, bool) {
	if i, ok := r.byInstr[instr]; ok {
		return r.Events[i], true
	}
	return Event{}, false
}

// Analyze computes the set of locks held at every instruction of fn: a
// forward dataflow over the SSA control-flow graph, solved as a fixpoint with
// a worklist. The lattice has finite height (a lock goes from absent to
// must-held to may-held), so each block is visited a bounded number of times
// and the cost is linear in the size of the function; paths are never
// enumerated.
func Analyze(fn *ssa.Function, cfg Config) *Result {
	r := &Result{Fn: fn, ident: identifier{fn: fn, free: cfg.Free, conds: cfg.Conds}}
	if len(fn.Blocks) == 0 {
		return r
	}
	a := &analysis{cfg: cfg, res: r, tries: map[ssa.Value]tryLock{}}

	entry := State{}
	for _, h := range cfg.Entry {
		h.Inherited = true
		entry = entry.with(h)
	}

	n := len(fn.Blocks)
	in := make([]*State, n)
	in[0] = &entry
	queued := make([]bool, n)
	work := []int{0}
	queued[0] = true
	for len(work) > 0 {
		b := fn.Blocks[work[0]]
		work = work[1:]
		queued[b.Index] = false
		out := a.block(b, *in[b.Index], false)
		for i, succ := range b.Succs {
			if DeadEdge(b, i) {
				continue
			}
			e := a.edge(b, i, out)
			if in[succ.Index] != nil {
				e = join(*in[succ.Index], e)
				if e.equal(*in[succ.Index]) {
					continue
				}
			}
			in[succ.Index] = &e
			if !queued[succ.Index] {
				queued[succ.Index] = true
				work = append(work, succ.Index)
			}
		}
	}

	// Replay each reachable block once with its final entry state to record
	// events and the exit effect.
	var exit *State
	var returned []Effect
	first := true
	r.out = make([]State, n)
	for _, b := range fn.Blocks {
		if in[b.Index] == nil {
			continue
		}
		out := a.block(b, *in[b.Index], true)
		r.out[b.Index] = out
		if ret, ok := lastInstr(b).(*ssa.Return); ok && ret != nil {
			s := atReturn(out)
			if exit == nil {
				exit = &s
			} else {
				j := join(*exit, s)
				exit = &j
			}
			if r := a.returnedUnlocks(ret); first {
				returned, first = r, false
			} else {
				returned = commonEffects(returned, r)
			}
		}
	}
	if exit != nil {
		r.Exit = append(effects(a.relocked(fn, *exit)), returned...)
	}
	r.reachable = make([]bool, n)
	for i := range in {
		r.reachable[i] = in[i] != nil
	}
	a.returnsAlongEdges(in)
	r.tries = a.tries
	r.ident.frozen = true
	return r
}

// Reachable reports whether block b runs at all: blocks behind a branch on
// a false constant (if debug { ... } with const debug = false) do not.
func (r *Result) Reachable(b *ssa.BasicBlock) bool {
	return b.Index < len(r.reachable) && r.reachable[b.Index]
}

// DeadEdge reports whether b's i'th successor edge is ruled out by a branch
// on a constant, or is the way out of a switch that has already matched
// every value of its enum (see exhaustedEnum).
func DeadEdge(b *ssa.BasicBlock, i int) bool {
	ifi, ok := lastInstr(b).(*ssa.If)
	if !ok {
		return false
	}
	c, ok := ifi.Cond.(*ssa.Const)
	if !ok {
		return i == 1 && exhaustedEnum(b)
	}
	if c.Value == nil || c.Value.Kind() != constant.Bool {
		return false
	}
	return constant.BoolVal(c.Value) == (i == 1)
}

// OnceDo returns the Once and the func of a call of (*sync.Once).Do: the
// Once the call holds while the func runs.
func OnceDo(c *ssa.CallCommon) (once, f ssa.Value, ok bool) {
	fn := c.StaticCallee()
	if c.IsInvoke() || fn == nil || len(c.Args) != 2 {
		return nil, nil, false
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Name() != "Do" || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return nil, nil, false
	}
	if recv := obj.Signature().Recv(); recv == nil || recvName(recv.Type()) != "Once" {
		return nil, nil, false
	}
	return c.Args[0], c.Args[1], true
}

// returnedUnlocks finds results of ret that are a lock's own Unlock (or
// RUnlock) method value: the function hands its caller the release.
func (a *analysis) returnedUnlocks(ret *ssa.Return) []Effect {
	var out []Effect
	for _, v := range ret.Results {
		if id, mode, ok := a.res.UnlockFunc(v); ok && (id.Root == RootParam || id.Root == RootFree || id.Root == RootGlobal) {
			// Handed on from a helper (return unlockOnce(l)): its
			// first-call-only release and its side go with it.
			if m, ok := a.res.unlockModes[v]; ok {
				mode = m
			}
			out = append(out, Effect{Lock: id, Release: true, Mode: mode, Returned: true, Once: a.res.onceUnlockers[v]})
			continue
		}
		out = append(out, a.returnedClosureUnlocks(v)...)
	}
	return out
}

// returnedClosureUnlocks returns the releases a func literal v that the
// function returns makes, on every path, of locks it reaches through the
// variables it captures from the function's parameters, free variables or
// package: an unlock function made for the caller (func unlockOnce(l
// sync.Locker) func() { var once sync.Once; return func() {
// once.Do(l.Unlock) } }).
func (a *analysis) returnedClosureUnlocks(v ssa.Value) []Effect {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok || a.cfg.Effects == nil {
		return nil
	}
	g, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil
	}
	once, ok := onlyReleases(g, mc)
	if !ok {
		return nil // it does more: the caller judges it as the call it is
	}
	var out []Effect
	for _, e := range a.cfg.Effects(g) {
		if !e.Release || e.Returned || len(e.When) > 0 || e.Lock.Root != RootFree || e.Lock.RootIndex >= len(mc.Bindings) {
			return nil
		}
		id := rebased(e.Lock, a.res.ident.of(mc.Bindings[e.Lock.RootIndex]))
		if id.Root != RootParam && id.Root != RootFree && id.Root != RootGlobal {
			return nil
		}
		out = append(out, Effect{Lock: id, Release: true, Mode: e.Mode, Returned: true, Once: once})
	}
	return out
}

// onlyReleases reports whether g, a func literal, does nothing but
// release locks: its calls are releases (mu.Unlock(), l.Unlock()) or
// once.Do of a release, and it sends, receives, selects, starts and
// defers nothing. once reports that its release goes through a Once.
func onlyReleases(g *ssa.Function, mc *ssa.MakeClosure) (once, ok bool) {
	calls := 0
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				op, viaOnce := OpOf(x.Common()), false
				if _, f, ok := OnceDo(x.Common()); ok {
					op, viaOnce = OpOf(&ssa.CallCommon{Value: f}), true
				}
				if op.Kind != Release || !capturedAsIs(g, mc, op.Recv) {
					return false, false
				}
				once = once || viaOnce
				calls++
			case *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.Select, *ssa.Panic, *ssa.MapUpdate:
				return false, false
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					return false, false
				}
			}
		}
	}
	return once, calls > 0
}

// capturedAsIs reports whether the lock recv, in the func literal g that
// mc makes, is a captured value or a field of it held by value: a
// variable captured by reference counts only when it is a parameter of
// the maker, set once on entry. A lock read through a pointer field, or
// through a variable the maker may set again, may be another by the time
// the func is called (r.cur.mu, after r.cur is swapped).
func capturedAsIs(g *ssa.Function, mc *ssa.MakeClosure, recv ssa.Value) bool {
	v := Unbox(recv)
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		v = fa.X
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		fv, ok := ld.X.(*ssa.FreeVar)
		i := slices.Index(g.FreeVars, fv)
		if !ok || i < 0 || i >= len(mc.Bindings) {
			return false
		}
		cell, ok := mc.Bindings[i].(*ssa.Alloc)
		if !ok {
			return false
		}
		_, param := SetOnce(cell).(*ssa.Parameter)
		return param
	}
	_, ok := v.(*ssa.FreeVar)
	return ok
}

// freshOnce reports whether once, the Once a call instr in fn runs Do on,
// is used for that one call only: a variable of fn with no other use, or
// one its parent declares for this func literal alone; and the call is in
// no loop. Its Do then runs its func on that call.
func freshOnce(fn *ssa.Function, once ssa.Value, instr ssa.Instruction) bool {
	if InLoop(instr.Block()) {
		return false
	}
	switch v := once.(type) {
	case *ssa.Alloc:
		return v.Parent() == fn && usedOnlyBy(v, instr)
	case *ssa.FreeVar:
		if !usedOnlyBy(v, instr) || fn.Parent() == nil {
			return false
		}
		i := slices.Index(fn.FreeVars, v)
		var cell *ssa.Alloc
		for _, b := range fn.Parent().Blocks {
			for _, pi := range b.Instrs {
				mc, ok := pi.(*ssa.MakeClosure)
				if !ok || mc.Fn != ssa.Value(fn) || i >= len(mc.Bindings) {
					continue
				}
				a, ok := mc.Bindings[i].(*ssa.Alloc)
				if !ok || cell != nil || !onlyReturned(mc) {
					return false
				}
				cell = a
			}
		}
		return cell != nil && usedOnlyBy(cell, nil)
	}
	return false
}

// onlyReturned reports whether the func literal mc makes is only
// returned: each call of its maker yields a new one, with its own Once.
// One called in place may run more than once.
func onlyReturned(mc *ssa.MakeClosure) bool {
	refs := *mc.Referrers()
	for _, ref := range refs {
		if _, ok := ref.(*ssa.Return); !ok {
			return false
		}
	}
	return len(refs) > 0
}

// usedOnlyBy reports whether v's only uses are instr (nil: one closure
// that captures it) and debug references.
func usedOnlyBy(v ssa.Value, instr ssa.Instruction) bool {
	captures := 0
	for _, ref := range *v.Referrers() {
		switch ref.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.MakeClosure:
			if instr == nil {
				captures++
				continue
			}
		}
		if ref != instr {
			return false
		}
	}
	return instr != nil || captures == 1
}

// onceCalls reports whether the calls of v, a func that releases the lock
// id on its first call only, each release it: v is only ever called here
// (not passed on or kept), at most once without defer and not in a loop,
// and when a deferred call backs up that one, no path from it takes the
// lock again (the deferred call, then a no-op, would leave it held).
func (a *analysis) onceCalls(v ssa.Value, id ID) bool {
	var direct []ssa.Instruction
	deferred := false
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.Call:
			if r.Call.Value != v || InLoop(r.Block()) {
				return false
			}
			direct = append(direct, r)
		case *ssa.Defer:
			if r.Call.Value != v {
				return false
			}
			deferred = true
		default:
			return false
		}
	}
	for _, c := range direct {
		// Calls on different branches (miekg/dns unlocks before
		// serving UDP or TCP): no path makes two.
		for _, d := range direct {
			if c != d && a.reachesInstr(c, d) {
				return false
			}
		}
		if deferred && a.takenAfter(c, id) {
			return false
		}
	}
	return true
}

// reachesInstr reports whether a path from instr reaches to.
func (a *analysis) reachesInstr(instr, to ssa.Instruction) bool {
	found := false
	a.walkAfter(instr, func(in ssa.Instruction) bool {
		if in == to {
			found = true
		}
		return found
	})
	return found
}

// takenAfter reports whether a path from instr acquires the lock id.
func (a *analysis) takenAfter(instr ssa.Instruction, id ID) bool {
	taken := false
	a.walkAfter(instr, func(in ssa.Instruction) bool {
		if c, ok := in.(ssa.CallInstruction); ok {
			if op := OpOf(c.Common()); (op.Kind == Acquire || op.Kind == TryAcq) && a.res.ident.of(op.Recv).Key == id.Key {
				taken = true
			}
		}
		return taken
	})
	return taken
}

// walkAfter calls visit on each instruction some path from instr reaches,
// after it, until visit returns true: the rest of its block, then the
// blocks its successors reach (reachableFrom).
func (a *analysis) walkAfter(instr ssa.Instruction, visit func(ssa.Instruction) bool) {
	b := instr.Block()
	for _, in := range b.Instrs[slices.Index(b.Instrs, instr)+1:] {
		if visit(in) {
			return
		}
	}
	reached := make([]bool, len(b.Parent().Blocks))
	for _, s := range b.Succs {
		for i, ok := range a.reachableFrom(s) {
			reached[i] = reached[i] || ok
		}
	}
	for i, ok := range reached {
		if !ok {
			continue
		}
		for _, in := range b.Parent().Blocks[i].Instrs {
			if visit(in) {
				return
			}
		}
	}
}

// InLoop reports whether block b lies on a cycle of its function's
// control-flow graph: it can run again after it runs. A block not known
// (nil) is taken to.
func InLoop(b *ssa.BasicBlock) bool {
	if b == nil {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}

// UnlockFunc reports whether calling the func value v releases a lock, and
// which: the unlock function a lock wrapper returned (IsUnlocker), or a
// method value of a lock's Unlock or RUnlock (return mu.Unlock).
func (r *Result) UnlockFunc(v ssa.Value) (ID, Mode, bool) {
	if id, ok := r.unlockers[v]; ok {
		return id, Write, true
	}
	mc, ok := v.(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return ID{}, Write, false
	}
	op := OpOf(&ssa.CallCommon{Value: mc})
	if op.Kind != Release {
		return ID{}, Write, false
	}
	if op.Mode == Write && r.ident.readSide(op.Recv) {
		op.Mode = Read // rw.RLocker().Unlock
	}
	return r.ident.of(op.Recv), op.Mode, true
}

// commonEffects keeps the effects present in both lists.
func commonEffects(a, b []Effect) []Effect {
	var out []Effect
	for _, e := range a {
		for _, f := range b {
			if e.Lock.Key == f.Lock.Key && e.Release == f.Release && e.Returned == f.Returned {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

type tryLock struct {
	id   ID
	mode Mode
	pos  token.Pos
}

type analysis struct {
	cfg   Config
	res   *Result
	tries map[ssa.Value]tryLock
	// captured caches, by closure, the calls it always makes through
	// the variables it captures (capturedCalls).
	captured map[*ssa.Function][]capturedCall
	// reach caches reachableFrom, and candidates the renames each edge's
	// φs could make (phis.go).
	reach      map[*ssa.BasicBlock][]bool
	candidates map[[2]int][]phiCandidate
}

// A capturedCall is a call a closure makes, on every path that returns,
// of a func value it reads from its free variable FreeVar.
type capturedCall struct {
	call    *ssa.Call
	freeVar int
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// edge returns the state flowing along b's i'th successor edge, its
// locks renamed to the φs of the successor they feed.
func (a *analysis) edge(b *ssa.BasicBlock, i int, s State) State {
	s = edgeOf(b, i, s, a.tries)
	if len(s.Held) == 0 && len(s.Pending) == 0 {
		return s
	}
	return s.renamed(a.phiRenames(b, i, s))
}

// edgeOf returns the state flowing along b's i'th successor edge when s
// is the state after b's last instruction: a TryLock result tested by
// b's final If acquires the lock on the true edge.
func edgeOf(b *ssa.BasicBlock, i int, s State, tries map[ssa.Value]tryLock) State {
	ifi, ok := lastInstr(b).(*ssa.If)
	if !ok {
		return s
	}
	cond, want := ifi.Cond, 0
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, want = u.X, 1
	}
	t, ok := tries[cond]
	if !ok || i != want {
		return s
	}
	return acquire(s, t.id, t.mode, t.pos)
}

// block applies the transfer function of each instruction of b to s.
func (a *analysis) block(b *ssa.BasicBlock, s State, record bool) State {
	for _, instr := range b.Instrs {
		if record && a.cfg.Visit != nil {
			a.cfg.Visit(instr, s)
		}
		if record && (len(s.Held) > 0 || len(s.Released) > 0 || len(s.Pending) > 0 && isReturn(instr)) && interesting(instr) {
			if a.res.byInstr == nil {
				a.res.byInstr = make(map[ssa.Instruction]int)
			}
			a.res.byInstr[instr] = len(a.res.Events)
			a.res.Events = append(a.res.Events, Event{Instr: instr, State: s})
		}
		s = a.step(instr, s)
	}
	return s
}

// step is the transfer function of one instruction.
func (a *analysis) step(instr ssa.Instruction, s State) State {
	switch instr := instr.(type) {
	case *ssa.Call:
		return a.call(instr.Common(), instr, s, false)
	case *ssa.Defer:
		return a.call(instr.Common(), instr, s, true)
	case *ssa.Go:
		return a.handOff(instr.Common(), s)
	}
	return s
}

// isReturn reports whether instr is a return: a deferred release still
// pending there is recorded even when nothing is held (a double unlock).
func isReturn(instr ssa.Instruction) bool {
	_, ok := instr.(*ssa.Return)
	return ok
}

// interesting reports whether an event is worth recording for instr.
func interesting(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Call, *ssa.Send, *ssa.Select, *ssa.Go, *ssa.Defer, *ssa.MapUpdate:
		return true
	case *ssa.Return:
		return true // lock leaks: what is still held when the function returns
	case *ssa.Lookup:
		return true // map reads, for shardlock's global-map
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	}
	return false
}

// call applies a call (or a deferred call) to s.
func (a *analysis) call(c *ssa.CallCommon, instr ssa.Instruction, s State, deferred bool) State {
	if id, ok := a.res.unlockers[c.Value]; ok {
		if a.res.onceUnlockers[c.Value] && !a.onceCalls(c.Value, id) {
			return s // which call releases, if any, is not known
		}
		mode, ok := a.res.unlockModes[c.Value]
		if !ok {
			mode = Write
		}
		return releaseMode(s, id, mode, deferred)
	}
	if once, f, ok := OnceDo(c); ok && freshOnce(a.res.Fn, once, instr) {
		// once.Do(l.Unlock) on a Once used for nothing else: Do
		// calls its func here.
		if id, mode, ok := a.res.UnlockFunc(f); ok {
			return releaseMode(s, id, mode, deferred)
		}
	}
	op := a.res.OpOf(c)
	switch op.Kind {
	case Acquire:
		if deferred {
			return s
		}
		return acquire(s, a.res.ident.of(op.Recv), op.Mode, instr.Pos())
	case Release:
		return release(s, a.res.ident.of(op.Recv), deferred)
	case TryAcq:
		if v, ok := instr.(ssa.Value); ok && !deferred {
			a.tries[v] = tryLock{id: a.res.ident.of(op.Recv), mode: op.Mode, pos: instr.Pos()}
		}
		return s
	case CondWait:
		return s // releases L and re-takes it before returning
	}
	if a.cfg.Effects == nil {
		return s
	}
	callee, bindings := CalledFunc(a.res.Fn, c.Value)
	if callee == nil {
		return s
	}
	for _, e := range a.cfg.Effects(callee) {
		root, ok := a.root(e.Lock, c, bindings)
		if !ok {
			continue
		}
		id := rebased(e.Lock, root)
		if e.Lock.Root == RootParam {
			id.Arg, id.ArgPath = e.Lock.RootIndex+1, e.Lock.NamePath
		}
		if e.Returned {
			if v, ok := instr.(ssa.Value); ok && !deferred {
				if a.res.unlockers == nil {
					a.res.unlockers = map[ssa.Value]ID{}
				}
				a.res.unlockers[v] = id
				if e.Mode == Write && e.Lock.Path == "" && a.res.ident.readSide(rootValue(e.Lock, c, bindings)) {
					e.Mode = Read // unlockOnce(rw.RLocker()): the read side
				}
				if e.Mode != Write {
					if a.res.unlockModes == nil {
						a.res.unlockModes = map[ssa.Value]Mode{}
					}
					a.res.unlockModes[v] = e.Mode
				}
				if e.Once {
					if a.res.onceUnlockers == nil {
						a.res.onceUnlockers = map[ssa.Value]bool{}
					}
					a.res.onceUnlockers[v] = true
				}
			}
			continue
		}
		if e.Release {
			s = release(s, id, deferred)
		} else if !deferred {
			s = acquire(s, id, e.Mode, instr.Pos())
		}
	}
	return a.capturedCalls(callee, bindings, instr, s, deferred)
}

// capturedCalls applies the effects of the closures that callee, a closure
// made here, always calls through variables it captures from here (fail
// := func() error { rollback(); ... }, where rollback unlocks): the
// callee's own effects cannot name this function's locks, but the
// captured closure's bindings are this function's values.
func (a *analysis) capturedCalls(callee *ssa.Function, bindings []ssa.Value, instr ssa.Instruction, s State, deferred bool) State {
	if len(bindings) == 0 || callee.Parent() == nil {
		return s
	}
	for _, cc := range a.capturedCallsOf(callee) {
		if cc.freeVar >= len(bindings) {
			continue
		}
		cell, ok := bindings[cc.freeVar].(*ssa.Alloc)
		if !ok || cell.Parent() != a.res.Fn {
			continue
		}
		mc, ok := SetOnce(cell).(*ssa.MakeClosure)
		if !ok {
			continue
		}
		g, _ := mc.Fn.(*ssa.Function)
		if g == nil || g == callee {
			continue
		}
		for _, e := range a.cfg.Effects(g) {
			if e.Returned || e.Lock.Root != RootFree {
				continue
			}
			root, ok := a.root(e.Lock, &cc.call.Call, mc.Bindings)
			if !ok {
				continue
			}
			id := rebased(e.Lock, root)
			if e.Release {
				s = release(s, id, deferred)
			} else if !deferred {
				s = acquire(s, id, e.Mode, instr.Pos())
			}
		}
	}
	return s
}

// capturedCallsOf returns, once per closure, the calls it makes on every
// path that returns of func values read from its free variables.
func (a *analysis) capturedCallsOf(callee *ssa.Function) []capturedCall {
	if ccs, ok := a.captured[callee]; ok {
		return ccs
	}
	var ccs []capturedCall
	for _, b := range callee.Blocks {
		var calls []capturedCall
		for _, x := range b.Instrs {
			call, ok := x.(*ssa.Call)
			if !ok {
				continue
			}
			u, ok := call.Call.Value.(*ssa.UnOp)
			if !ok || u.Op != token.MUL {
				continue
			}
			if fv, ok := u.X.(*ssa.FreeVar); ok {
				if i := slices.Index(callee.FreeVars, fv); i >= 0 {
					calls = append(calls, capturedCall{call, i})
				}
			}
		}
		if len(calls) > 0 && DominatesReturns(b) {
			ccs = append(ccs, calls...)
		}
	}
	if a.captured == nil {
		a.captured = map[*ssa.Function][]capturedCall{}
	}
	a.captured[callee] = ccs
	return ccs
}

// DominatesReturns reports whether every return of b's function comes
// after b: what b does happens on every path that returns.
func DominatesReturns(b *ssa.BasicBlock) bool {
	for _, r := range b.Parent().Blocks {
		if len(r.Instrs) == 0 {
			continue
		}
		if _, ok := r.Instrs[len(r.Instrs)-1].(*ssa.Return); ok && !b.Dominates(r) {
			return false
		}
	}
	return true
}

// root returns the caller's identity for the root of a callee's lock.
func (a *analysis) root(l ID, c *ssa.CallCommon, bindings []ssa.Value) (ID, bool) {
	switch l.Root {
	case RootParam:
		args := c.Args
		if c.IsInvoke() {
			return ID{}, false
		}
		if l.RootIndex < len(args) {
			return a.res.ident.of(args[l.RootIndex]), true
		}
	case RootFree:
		if l.RootIndex < len(bindings) && bindings[l.RootIndex] != nil {
			return a.res.ident.of(bindings[l.RootIndex]), true
		}
	case RootGlobal:
		return l, true
	}
	return ID{}, false
}

// rootValue returns the value of the caller's that a callee's lock l is
// rooted at, as root names it, or nil.
func rootValue(l ID, c *ssa.CallCommon, bindings []ssa.Value) ssa.Value {
	switch l.Root {
	case RootParam:
		if !c.IsInvoke() && l.RootIndex < len(c.Args) {
			return c.Args[l.RootIndex]
		}
	case RootFree:
		if l.RootIndex < len(bindings) {
			return bindings[l.RootIndex]
		}
	}
	return nil
}

// rebased maps a callee's lock l onto the caller's root, as root returned
// it. A package-level lock is the same lock in every caller: l already
// names it in full (its Key holds its Path), so it is kept as it is.
func rebased(l, root ID) ID {
	if l.Root == RootGlobal {
		return l
	}
	return l.Rebase(root)
}

// handOff applies a go statement: a lock that the started goroutine
// releases (mu.Lock(); go func() { ...; mu.Unlock() }()) is handed to it,
// and no longer held here.
func (a *analysis) handOff(c *ssa.CallCommon, s State) State {
	if a.cfg.Effects == nil {
		return s
	}
	callee, bindings := CalledFunc(a.res.Fn, c.Value)
	if callee == nil {
		return s
	}
	for _, e := range a.cfg.Effects(callee) {
		if !e.Release || e.Returned {
			continue
		}
		root, ok := a.root(e.Lock, c, bindings)
		if !ok {
			continue
		}
		id := rebased(e.Lock, root)
		if _, held := s.Lookup(id.Key); held {
			s = s.without(id.Key)
		}
	}
	return s
}

func acquire(s State, id ID, mode Mode, pos token.Pos) State {
	if s.released(id.Key) {
		// An unlock/relock window in a function that was called holding
		// the lock: on return the caller holds it again, as before.
		s = s.withoutReleased(id.Key)
		return s.with(Held{ID: id, Mode: mode, Pos: pos, Must: true, Restored: true})
	}
	if h, ok := s.Lookup(id.Key); ok {
		// Re-acquisition of a held lock is lockorder's business; keep the
		// first acquisition site.
		h.Must = true
		return s.with(h)
	}
	return s.with(Held{ID: id, Mode: mode, Pos: pos, Must: true, Deferred: s.pending(id.Key)})
}

// releaseMode is release for an unlock of one side of an RWMutex: one
// that does not match the side held (RUnlock of a write lock, a fatal
// error at run time) leaves the lock held.
func releaseMode(s State, id ID, mode Mode, deferred bool) State {
	if h, ok := s.Lookup(id.Key); ok && h.Mode != mode {
		return s
	}
	return release(s, id, deferred)
}

func release(s State, id ID, deferred bool) State {
	if h, ok := s.Lookup(id.Key); ok {
		if deferred {
			h.Deferred = true
			return s.with(h).withPending(id.Key)
		}
		s = s.without(id.Key)
		if h.Restored {
			// The caller's lock, taken back in a relock window, is
			// released again (the next turn of the window's loop).
			s = s.withReleased(h.ID)
		}
		return s
	}
	if id.Root == RootParam || id.Root == RootFree || id.Root == RootGlobal {
		return s.withReleased(id)
	}
	return s
}

// relocked returns the exit state s without the caller's locks that fn
// released but takes back in a deferred call (mu.Unlock(); defer
// mu.Lock()): they are held again when fn returns, so fn does not release
// them.
func (a *analysis) relocked(fn *ssa.Function, s State) State {
	if len(s.Released) == 0 {
		return s
	}
	var keys []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				if op := OpOf(d.Common()); op.Kind == Acquire {
					keys = append(keys, a.res.ident.of(op.Recv).Key)
				}
			}
		}
	}
	if len(keys) == 0 {
		return s
	}
	out := State{Held: s.Held, Pending: s.Pending}
	for _, id := range s.Released {
		if !slices.Contains(keys, id.Key) {
			out.Released = append(out.Released, id)
		}
	}
	return out
}

// atReturn is the state after deferred releases ran.
func atReturn(s State) State {
	out := State{Released: s.Released}
	for _, h := range s.Held {
		if h.Deferred || s.pending(h.Key) {
			if h.Inherited || h.Restored {
				out = out.withReleased(h.ID)
			}
			continue
		}
		out.Held = append(out.Held, h)
	}
	return out
}

// effects is the net effect of a function whose exit state is s on the
// locks its caller can name.
func effects(s State) []Effect {
	var out []Effect
	for _, h := range s.Held {
		if !h.Must || h.Inherited || h.Restored {
			continue
		}
		if h.Root == RootParam || h.Root == RootFree || h.Root == RootGlobal {
			out = append(out, Effect{Lock: h.ID, Mode: h.Mode})
		}
	}
	for _, id := range s.Released {
		out = append(out, Effect{Lock: id, Release: true})
	}
	return out
}
