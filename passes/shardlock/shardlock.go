package shardlock

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/analyzerdoc"
	"github.com/lockaudit/lockaudit/passes/internal/guard"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
	"github.com/lockaudit/lockaudit/passes/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports locks that serialise sharded work.
var Analyzer = &analysis.Analyzer{
	Name:      "shardlock",
	Doc:       analyzerdoc.FromDocGo(doc, "shardlock"),
	URL:       "https://pkg.go.dev/github.com/lockaudit/lockaudit/passes/shardlock",
	Requires:  []*analysis.Analyzer{summary.Analyzer},
	FactTypes: []analysis.Fact{new(selectorFact), new(freshFact), new(fixedFact)},
	Run:       guard.Run(run),
}

// reportTests is the -tests flag: report above-shards findings in _test.go
// files.
var reportTests bool

func init() {
	Analyzer.Flags.Var(confidence.Flag, "severity", confidence.FlagUsage)
	Analyzer.Flags.BoolVar(&reportTests, "tests", false,
		"report above-shards findings in _test.go files (a test's lock above shards costs no production time; shard-order is always reported)")
}

func run(pass *analysis.Pass, at *token.Pos) (any, error) {
	res, release, err := summary.Of(pass)
	defer release()
	if err != nil {
		return nil, err
	}
	c := &checker{calls: srcname.New(pass), pass: pass, res: res, rep: suppress.New(pass, "shardlock"), reported: map[token.Pos]bool{}, maps: map[mapKey]*mapUse{}, selectors: map[*ssa.Function]*selector{}, shardLocks: map[string]bool{}, above: map[token.Pos]aboveFinding{}, objects: map[string]bool{}}
	for _, f := range res.Funcs {
		if f.Flow == nil {
			continue
		}
		*at = f.Fn.Pos()
		c.function(f)
	}
	*at = token.NoPos
	c.flushAbove()
	c.reportGlobalMaps()
	c.exportFacts()
	return nil, nil
}

type checker struct {
	calls     *srcname.Calls
	pass      *analysis.Pass
	res       *summary.Result
	rep       *suppress.Reporter
	reported  map[token.Pos]bool
	maps      map[mapKey]*mapUse
	selectors map[*ssa.Function]*selector // nil: not a selector
	stores    map[*types.Var][]ssa.Value  // see fieldStores
	// shardLocks holds the classes of the locks of shards and per-key
	// entries: such a lock over its element's own map is not one lock
	// over a whole map (global-map).
	shardLocks map[string]bool
	// above holds the above-shards finding of each outer lock until all
	// functions are seen: a shard picked by key explains it better than a
	// loop over every shard.
	above map[token.Pos]aboveFinding
	// objects memoises lockedByMethods, by lock class.
	objects map[string]bool
}

type aboveFinding struct {
	d    analysis.Diagnostic
	loop bool
}

// A shard is a lock taken through an index (c.shards[i].mu), a map key
// (t.locks[k], r.entries[k].mu) or a call that returns such an element
// (c.shardFor(k)): the element's own lock, in a fixed partition (an
// array, or a slice built once and never resized) or a map, owned by one
// object.
type shard struct {
	owner     string     // key of the object that owns the container, such as "p0"; "" if none
	container string     // class of the container, such as "(*pkg.Cache).shards"
	index     ssa.Value  // the index, when taken directly, by key, outside a loop; nil otherwise
	perKey    bool       // an element of a map: a per-key lock
	loop      bool       // taken in a loop over the elements
	ranged    bool       // the value of a range over a map
	field     *types.Var // the container field, when known
}

func (sh shard) noun() string {
	if sh.perKey {
		return "per-key lock"
	}
	return "shard lock"
}

// function checks the lock acquisitions and map accesses of one function,
// in instruction order (shard locks taken with nothing held must be known
// when the next one is taken).
func (c *checker) function(f *summary.Func) {
	shards := map[string]shard{} // shard locks taken, by key
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			ev, hasEvent := f.Flow.EventAt(instr)
			switch instr := instr.(type) {
			case *ssa.Call:
				op := lockstate.OpOf(instr.Common())
				if op.Kind == lockstate.NoOp && hasEvent {
					c.callTakesShard(f, instr, c.res.Shared(f, ev.State.MustHeld(), instr))
					continue
				}
				if op.Kind != lockstate.Acquire {
					continue
				}
				sh, ok := c.shardOf(f, op.Recv, b)
				if !ok {
					continue
				}
				id := f.Flow.IDOf(op.Recv)
				c.shardLocks[id.Class] = true
				if name, ok := c.calls.LockReceiver(instr.Pos()); ok {
					id.Name = name
				}
				if hasEvent {
					held := c.res.Shared(f, ev.State.MustHeld(), instr)
					if sh.owner != "" && holdsOwner(held, sh.owner) && (c.writesOwner(f, id.Key, sh.owner) || c.replacesContainer(f, sh)) {
						// The owner's lock guards the owner's state
						// updated with the element's (one atomic
						// step), or the collection it replaces.
						held = withoutOwner(held, sh.owner)
					}
					c.aboveShards(id, sh, instr.Pos(), held)
					c.shardOrder(f, id, sh, instr.Pos(), held, shards)
					c.mapOrder(id, sh, instr.Pos(), ev.State)
				}
				shards[id.Key] = sh
			case *ssa.Lookup:
				if hasEvent {
					c.mapAccess(f, instr.X, ev.State, false, instr.Pos())
				}
			case *ssa.MapUpdate:
				if hasEvent {
					c.mapAccess(f, instr.Map, ev.State, true, instr.Pos())
				}
			}
		}
	}
}

// callTakesShard checks a call whose callee takes a shard's lock (its
// summary's takes, rebased onto the arguments) against the locks held.
func (c *checker) callTakesShard(f *summary.Func, call *ssa.Call, held []lockstate.Held) {
	_, takes := c.res.CallEffects(f.Flow, call.Common(), summary.Takes)
	for _, t := range takes {
		owner, ok := elementLock(t.Lock.Key)
		field := c.containerField(t.Lock.Full)
		if !ok || !c.fixed(field) {
			continue
		}
		sh := shard{owner: owner, loop: lockstate.InLoop(call.Block()), field: field}
		held := lockstate.WithoutClasses(held, t.Outside)
		if holdsOwner(held, owner) && c.replacesContainer(f, sh) {
			// The collection's own guard, held to rebuild it: the
			// callee retires an old element, as a direct lock would.
			held = withoutOwner(held, owner)
		}
		c.aboveShards(t.Lock, sh, call.Pos(), held)
	}
}

// elementLock reports whether a lock key names an element's own lock in
// an indexed container ("p0.shards[v:t3].mu", "p0.shards[i].RWMutex"), and
// returns the key of the container's owner ("p0"). A lock reached from the
// element through a further field ("p0.blks[i].store.log.mu", a
// back-pointer out of the element) is not the element's.
func elementLock(key string) (owner string, ok bool) {
	open := strings.LastIndexByte(key, '[')
	if open < 0 {
		return "", false
	}
	depth, end := 0, -1
	for i := open; i < len(key); i++ {
		switch key[i] {
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			end = i
			break
		}
	}
	if end < 0 || !ownLockPath(key[end+1:]) {
		return "", false
	}
	cont := key[:open]
	dot := strings.LastIndexByte(cont, '.')
	if dot < 0 {
		return "", false
	}
	return cont[:dot], true
}

// ownLockPath reports whether the path below an object is one of its own
// lock fields: ".mu", an embedded ".Mutex", or ".mu.Mutex" (a lock in a
// struct field).
func ownLockPath(path string) bool {
	segs := strings.Split(strings.TrimPrefix(path, "."), ".")
	switch {
	case !strings.HasPrefix(path, ".") || strings.ContainsAny(path, "[]"):
		return false
	case len(segs) == 1:
		return true
	case len(segs) == 2:
		return segs[1] == "Mutex" || segs[1] == "RWMutex"
	}
	return false
}

// containerField resolves the container field of a lock's full class,
// "(*pkg.Cache).shards[].mu" or "(*pkg.DB).opts.cache.shards[].mu", through
// the package's types; nil when it cannot.
func (c *checker) containerField(full string) *types.Var {
	open := strings.Index(full, "[")
	if !strings.HasPrefix(full, "(*") || open < 0 {
		return nil
	}
	close := strings.Index(full, ")")
	if close < 0 || close > open {
		return nil
	}
	typeName := full[2:close]
	dot := strings.LastIndexByte(typeName, '.')
	if dot < 0 {
		return nil
	}
	pkg := findPackage(c.pass.Pkg, typeName[:dot])
	if pkg == nil {
		return nil
	}
	tn, ok := pkg.Scope().Lookup(typeName[dot+1:]).(*types.TypeName)
	if !ok {
		return nil
	}
	t := tn.Type()
	var f *types.Var
	for _, name := range strings.Split(strings.TrimPrefix(full[close+1:open], "."), ".") {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		f = nil
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == name {
				f = st.Field(i)
			}
		}
		if f == nil {
			return nil
		}
		t = f.Type()
	}
	return f
}

// findPackage returns the package with the given path: pkg or one it
// imports, directly or not; nil if none.
func findPackage(pkg *types.Package, path string) *types.Package {
	seen := map[*types.Package]bool{}
	work := []*types.Package{pkg}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if p.Path() == path {
			return p
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		work = append(work, p.Imports()...)
	}
	return nil
}

// shardOf reports whether the lock whose address is v is a shard's lock:
// the element's own lock (a lock field of an element, a value or what a
// pointer element points to, or the element itself) of a fixed container
// field or of a map, or of the element a selector returns.
func (c *checker) shardOf(f *summary.Func, v ssa.Value, b *ssa.BasicBlock) (shard, bool) {
	loop := lockstate.InLoop(b)
	if el, ok := lockElement(v); ok {
		if _, isConst := el.index.(*ssa.Const); isConst {
			return shard{}, false // a named slot, not a key's shard
		}
		if _, phi := el.index.(*ssa.Phi); phi && !loop {
			return shard{}, false // an index chosen by branches
		}
		cont, owner, ok := c.container(f, el.cont, el.isMap)
		if !ok && !el.ranged {
			return shard{}, false
		}
		if el.isMap && c.lockedByMethods(v) {
			return shard{}, false
		}
		sh := shard{owner: owner, container: cont, perKey: el.isMap, loop: loop || el.ranged, ranged: el.ranged, field: containerVar(el.cont)}
		if !sh.loop {
			sh.index = el.index
		}
		return sh, true
	}
	var call *ssa.Call
	switch x := v.(type) {
	case *ssa.FieldAddr:
		elem := x.X
		if inner, ok := elem.(*ssa.FieldAddr); ok && lockstate.IsLockType(inner.Type()) {
			elem = inner.X
		}
		call, _ = elem.(*ssa.Call)
	case *ssa.Call:
		if lockstate.IsLockType(x.Type()) {
			call = x
		}
	}
	if call == nil || len(call.Call.Args) == 0 {
		return shard{}, false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return shard{}, false
	}
	sel, ok := c.selectorOf(callee)
	if !ok || sel.Map && c.lockedByMethods(v) {
		return shard{}, false
	}
	sh := shard{owner: f.Flow.IDOf(call.Call.Args[0]).Key, container: sel.Container, perKey: sel.Map, loop: loop}
	if sel.Container == "" {
		// A method of the container itself: its owner is the
		// argument's.
		cont, owner, ok := c.container(f, call.Call.Args[0], sel.Map)
		if !ok {
			return shard{}, false
		}
		sh.owner, sh.container, sh.field = owner, cont, containerVar(call.Call.Args[0])
	}
	return sh, true
}

// container reports whether x, the container operand of an element, is a
// container field (the field's address for an array, its loaded value for
// a slice or a map), a fixed one for an array or a slice, or a
// package-level map, and returns its class and its owner's key.
func (c *checker) container(f *summary.Func, x ssa.Value, isMap bool) (class, owner string, ok bool) {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
	}
	switch x := x.(type) {
	case *ssa.FieldAddr:
		if !isMap && !c.fixed(summary.FieldVar(x)) {
			return "", "", false
		}
		return lockstate.FieldClass(x), f.Flow.IDOf(x.X).Key, true
	case *ssa.Global:
		if isMap {
			id := f.Flow.IDOf(x)
			return id.Class, id.Key, true
		}
	}
	return "", "", false
}

// isParam reports whether v is fn's i'th parameter (or its captured cell).
func isParam(fn *ssa.Function, v ssa.Value, i int) bool {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if cell, ok := u.X.(*ssa.Alloc); ok {
			v = lockstate.CellValue(cell)
		}
	}
	return i < len(fn.Params) && v == fn.Params[i]
}

// rootKey is the root of a lock key: "p0" for "p0.shards[i].mu".
func rootKey(key string) string {
	if i := strings.IndexAny(key, ".["); i >= 0 {
		return key[:i]
	}
	return key
}

func indexed(key string) bool { return strings.Contains(key, "[") }

// ownerLock reports whether the lock key is a lock of the object whose key
// is owner: one of its lock fields.
func ownerLock(key, owner string) bool {
	rest, ok := strings.CutPrefix(key, owner)
	return ok && ownLockPath(rest)
}

// aboveShards reports the locks of the shards' owner (or package-level
// locks) held while a shard's lock is taken.
func (c *checker) aboveShards(id lockstate.ID, sh shard, pos token.Pos, held []lockstate.Held) {
	if sh.owner == "" {
		return // a range over a map no object owns: only its order matters
	}
	for _, h := range held {
		if h.Key == id.Key || indexed(h.Key) || c.reported[h.Pos] {
			continue
		}
		if prev, ok := c.above[h.Pos]; ok && (!prev.loop || sh.loop) {
			continue
		}
		if !ownerLock(h.Key, sh.owner) && h.Root != lockstate.RootGlobal {
			continue // another object's lock: lockorder's business
		}
		what := "shard"
		if sh.perKey {
			what = "key"
		}
		where := srcname.At(c.pass.Fset, pos)
		if sh.loop {
			where += ", in a loop over every " + what
		}
		c.above[h.Pos] = aboveFinding{loop: sh.loop, d: analysis.Diagnostic{
			Pos:      h.Pos,
			Category: "above-shards",
			Message: fmt.Sprintf("%s is held above the %s %s (taken at %s): one lock serialises the %ss again",
				h.Name, sh.noun(), id.Name, where, what),
			Related: []analysis.RelatedInformation{{Pos: pos, Message: id.Name + " locked here"}},
		}}
	}
}

// flushAbove reports the above-shards findings, in source order.
func (c *checker) flushAbove() {
	pos := make([]token.Pos, 0, len(c.above))
	for p := range c.above {
		pos = append(pos, p)
	}
	slices.Sort(pos)
	for _, p := range pos {
		c.reported[p] = true
		if !reportTests && srcname.InTest(c.pass.Fset, p) {
			continue // contention in a test costs no production time
		}
		c.report(c.above[p].d)
	}
}

// shardOrder reports a second shard of one container taken while another
// is held, unless the function compares their indices.
func (c *checker) shardOrder(f *summary.Func, id lockstate.ID, sh shard, pos token.Pos, held []lockstate.Held, shards map[string]shard) {
	for _, h := range held {
		other, ok := shards[h.Key]
		if !ok || h.Key == id.Key || other.container != sh.container || sh.index == nil || other.index == nil {
			continue
		}
		if ordered(f.Fn, other.index, sh.index) {
			continue
		}
		c.report(analysis.Diagnostic{
			Pos:      pos,
			Category: "shard-order",
			Message: fmt.Sprintf("%s %s taken while %s is held, in no fixed index order (%s): two goroutines locking the same pair in opposite orders deadlock",
				sh.noun(), id.Name, h.Name, c.where(h)),
			Related: []analysis.RelatedInformation{{Pos: h.Pos, Message: h.Name + " locked here"}},
		})
		return
	}
}

// mapOrder reports the lock of a map's element taken in a range over the
// map while the previous iterations' are still held (the lock is held,
// on some path, where the loop takes it again): map order is random, so
// two goroutines can lock the same pair in opposite orders.
func (c *checker) mapOrder(id lockstate.ID, sh shard, pos token.Pos, st lockstate.State) {
	if !sh.ranged {
		return
	}
	if _, held := st.Lookup(id.Key); !held || c.reported[pos] {
		return
	}
	c.reported[pos] = true
	c.report(analysis.Diagnostic{
		Pos:      pos,
		Category: "shard-order",
		Message: fmt.Sprintf("%s %s taken in a range over a map while the locks of earlier elements are held: map order is random, two goroutines locking the same pair in opposite orders deadlock",
			sh.noun(), id.Name),
	})
}

// ordered reports whether the two indices are constants in increasing
// order, or fn compares them (i < j, j > i, ...) before locking.
func ordered(fn *ssa.Function, first, second ssa.Value) bool {
	a, aok := first.(*ssa.Const)
	b, bok := second.(*ssa.Const)
	if aok && bok {
		return a.Int64() < b.Int64()
	}
	first, second = strip(first), strip(second)
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			bin, ok := instr.(*ssa.BinOp)
			if !ok {
				continue
			}
			switch bin.Op {
			case token.LSS, token.GTR, token.LEQ, token.GEQ:
			default:
				continue
			}
			x, y := strip(bin.X), strip(bin.Y)
			if (x == first && y == second) || (x == second && y == first) {
				return true
			}
		}
	}
	return false
}

func strip(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

func (c *checker) report(d analysis.Diagnostic) { c.rep.Report(d) }

func (c *checker) where(h lockstate.Held) string {
	return "locked at " + srcname.At(c.pass.Fset, h.Pos)
}

// writesOwner reports whether f writes the owner's own state (a field of
// the owner, or a map or package-level variable it holds, not an element of
// its containers) while the element's lock, key, is held: the owner's
// lock then guards an update of the owner made together with the
// element's, an atomic step (a lease attached to an item in the lease's
// set and in the lessor's index), not a lock above the elements.
func (c *checker) writesOwner(f *summary.Func, key, owner string) bool {
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			var addr ssa.Value
			switch instr := instr.(type) {
			case *ssa.Store:
				addr = instr.Addr
			case *ssa.MapUpdate:
				addr = instr.Map
			case *ssa.Call:
				if bi, ok := instr.Call.Value.(*ssa.Builtin); ok && bi.Name() == "delete" && len(instr.Call.Args) > 0 {
					addr = instr.Call.Args[0]
				}
			}
			if addr == nil {
				continue
			}
			st, known := stateAt(f, instr)
			if !known {
				continue
			}
			if _, held := st.Lookup(key); !held {
				continue
			}
			if ownState(f.Flow.IDOf(addr).Key, owner) {
				return true
			}
		}
	}
	return false
}

// ownState reports whether a key names the owner's own state: the owner
// itself (a package-level variable) or a path of fields below it, through
// no container.
func ownState(key, owner string) bool {
	rest, ok := strings.CutPrefix(key, owner)
	return ok && (rest == "" || strings.HasPrefix(rest, ".") && !strings.ContainsAny(rest, "[]"))
}

// holdsOwner reports whether one of the owner's own locks is held.
func holdsOwner(held []lockstate.Held, owner string) bool {
	for _, h := range held {
		if ownerLock(h.Key, owner) {
			return true
		}
	}
	return false
}

// withoutOwner drops the owner's own locks from held.
func withoutOwner(held []lockstate.Held, owner string) []lockstate.Held {
	var out []lockstate.Held
	for _, h := range held {
		if !ownerLock(h.Key, owner) {
			out = append(out, h)
		}
	}
	return out
}

// containerVar returns the field a container operand loads, or nil.
func containerVar(x ssa.Value) *types.Var {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
	}
	if fa, ok := x.(*ssa.FieldAddr); ok {
		if v := summary.FieldVar(fa); v != nil {
			return v.Origin()
		}
	}
	return nil
}

// replacesContainer reports whether f sets the shard's container field of
// its owner to a new collection with one of the owner's locks held: the
// lock is the collection's own guard, rebuilding it (a reload that
// retires the old elements), not a lock above its elements.
func (c *checker) replacesContainer(f *summary.Func, sh shard) bool {
	if sh.field == nil {
		return false
	}
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if v := summary.FieldVar(fa); v == nil || v.Origin() != sh.field || f.Flow.IDOf(fa.X).Key != sh.owner {
				continue
			}
			if st, known := stateAt(f, instr); !known || holdsOwner(st.MustHeld(), sh.owner) {
				return true
			}
		}
	}
	return false
}

// stateAt returns the locks held at instr. The dataflow records them at
// calls, map accesses and returns (where something is held); the state
// at another instruction is that of the next recorded kind in its block,
// since only those change it. Known is false when the block has none
// after instr.
func stateAt(f *summary.Func, instr ssa.Instruction) (st lockstate.State, known bool) {
	instrs := instr.Block().Instrs
	i := slices.Index(instrs, instr)
	for _, x := range instrs[i:] {
		if ev, ok := f.Flow.EventAt(x); ok {
			return ev.State, true
		}
		switch x.(type) {
		case *ssa.Call, *ssa.MapUpdate, *ssa.Lookup, *ssa.Return:
			return lockstate.State{}, true // recorded only when something is held
		}
	}
	return lockstate.State{}, false
}

// lockedByMethods reports whether the lock whose address is v, a lock
// field of a map's element, is one that methods of the element's type take
// on their receiver: the element is an object with its own API (a
// server's client connection), reached and locked by whoever holds it,
// not a per-key lock that only the map hands out. Its owner's lock held
// above it is a lock hierarchy (lockorder's business), not a guard put
// back above per-key locks.
func (c *checker) lockedByMethods(v ssa.Value) bool {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return false // the element is a lock: a lock table
	}
	if inner, ok := fa.X.(*ssa.FieldAddr); ok && lockstate.IsLockType(inner.Type()) {
		fa = inner // a lock in a struct field: mu.Mutex
	}
	class := lockstate.FieldClass(fa)
	if class == "" {
		return false
	}
	if v, ok := c.objects[class]; ok {
		return v
	}
	c.objects[class] = false
	elem := fa.X.Type()
	if p, ok := elem.Underlying().(*types.Pointer); ok {
		elem = p.Elem()
	}
	named, ok := types.Unalias(elem).(*types.Named)
	if !ok {
		return false
	}
	mset := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < mset.Len(); i++ {
		m, ok := mset.At(i).Obj().(*types.Func)
		if !ok || len(mset.At(i).Index()) != 1 {
			continue // promoted methods lock an embedded value's locks
		}
		s := c.res.SummaryOfMethod(m)
		if s == nil {
			continue
		}
		for _, a := range s.Acquires {
			if strings.TrimSuffix(a, " (read)") == class {
				c.objects[class] = true
				return true
			}
		}
	}
	return false
}
