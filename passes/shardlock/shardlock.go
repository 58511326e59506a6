package shardlock

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
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
	Name:     "shardlock",
	Doc:      analyzerdoc.FromDocGo(doc, "shardlock"),
	URL:      "https://pkg.go.dev/github.com/lockaudit/lockaudit/passes/shardlock",
	Requires: []*analysis.Analyzer{summary.Analyzer},
	Run:      guard.Run(run),
}

func init() {
	Analyzer.Flags.Var(confidence.Flag, "severity", confidence.FlagUsage)
}

func run(pass *analysis.Pass, at *token.Pos) (any, error) {
	res := pass.ResultOf[summary.Analyzer].(*summary.Result)
	c := &checker{calls: srcname.New(pass), pass: pass, res: res, rep: suppress.New(pass, "shardlock"), reported: map[token.Pos]bool{}, maps: map[mapKey]*mapUse{}}
	for _, f := range res.Funcs {
		if f.Flow == nil {
			continue
		}
		*at = f.Fn.Pos()
		c.function(f)
	}
	*at = token.NoPos
	c.reportGlobalMaps()
	return nil, nil
}

type checker struct {
	calls    *srcname.Calls
	pass     *analysis.Pass
	res      *summary.Result
	rep      *suppress.Reporter
	reported map[token.Pos]bool
	maps     map[mapKey]*mapUse
}

// A shard is a lock taken through an index (c.shards[i].mu) or through a
// call that returns a pointer into an indexed container (c.shardFor(k)):
// the element's own lock, in a fixed partition (an array, or a slice built
// once and never resized) owned by one object.
type shard struct {
	owner     string    // key of the object that owns the container, such as "p0"
	container string    // class of the container, such as "(*pkg.Cache).shards"
	index     ssa.Value // the index, when taken directly; nil through a call
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
				if name, ok := c.calls.LockReceiver(instr.Pos()); ok {
					id.Name = name
				}
				if hasEvent {
					held := c.res.Shared(f, ev.State.MustHeld(), instr)
					c.aboveShards(id, sh, instr.Pos(), held)
					c.shardOrder(f, id, sh, instr.Pos(), held, shards)
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
	if inLoop(call.Block()) {
		return // a loop over the elements, not one shard picked by key
	}
	_, takes := c.res.CallEffects(f.Flow, call.Common(), summary.Takes)
	for _, t := range takes {
		owner, ok := elementLock(t.Lock.Key)
		if !ok || !c.res.FixedContainer(c.containerField(t.Lock.Full)) {
			continue
		}
		c.aboveShards(t.Lock, shard{owner: owner}, call.Pos(), lockstate.WithoutClasses(held, t.Outside))
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
	if dot < 0 || typeName[:dot] != c.pass.Pkg.Path() {
		return nil
	}
	tn, ok := c.pass.Pkg.Scope().Lookup(typeName[dot+1:]).(*types.TypeName)
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

// inLoop reports whether block b lies on a cycle of its function's
// control-flow graph.
func inLoop(b *ssa.BasicBlock) bool {
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

// shardOf reports whether the lock whose address is v is a shard's lock:
// a lock field of an element (a value, or what a pointer element points
// to) of a fixed container field, or of the element a shard selector
// returns.
func (c *checker) shardOf(f *summary.Func, v ssa.Value, b *ssa.BasicBlock) (shard, bool) {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return shard{}, false
	}
	elem := fa.X
	if inner, ok := elem.(*ssa.FieldAddr); ok && lockstate.IsLockType(inner.Type()) {
		elem = inner.X // a lock in a struct field: mu.Mutex
	}
	if u, ok := elem.(*ssa.UnOp); ok && u.Op == token.MUL {
		elem = u.X // a pointer element: shards []*shard
	}
	switch x := elem.(type) {
	case *ssa.IndexAddr:
		if _, phi := x.Index.(*ssa.Phi); phi || inLoop(b) {
			// A loop over the elements (or an index chosen by
			// branches): not one shard picked by key.
			return shard{}, false
		}
		if _, isConst := x.Index.(*ssa.Const); isConst {
			return shard{}, false
		}
		cont, owner, ok := c.container(f, x.X)
		if !ok {
			return shard{}, false
		}
		return shard{owner: owner, container: cont, index: x.Index}, true
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil || len(x.Call.Args) == 0 {
			return shard{}, false
		}
		cont := c.shardContainer(callee)
		if cont == "" {
			return shard{}, false
		}
		return shard{owner: f.Flow.IDOf(x.Call.Args[0]).Key, container: cont}, true
	}
	return shard{}, false
}

// container reports whether x, the operand of an IndexAddr, is a fixed
// container field (the field's address for an array, its loaded value for
// a slice), and returns its class and its owner's key.
func (c *checker) container(f *summary.Func, x ssa.Value) (class, owner string, ok bool) {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
	}
	fa, ok := x.(*ssa.FieldAddr)
	if !ok || !c.res.FixedContainer(summary.FieldVar(fa)) {
		return "", "", false
	}
	return lockstate.FieldClass(fa), f.Flow.IDOf(fa.X).Key, true
}

// shardContainer names the fixed container of the receiver that every
// return of fn points into (a shard selector such as shardFor), or "".
func (c *checker) shardContainer(fn *ssa.Function) string {
	container := ""
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return ""
		}
		v := ret.Results[0]
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
			v = u.X // an element of []*shard
		}
		ia, ok := v.(*ssa.IndexAddr)
		if !ok {
			return ""
		}
		x := ia.X
		if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
			x = u.X
		}
		fa, ok := x.(*ssa.FieldAddr)
		if !ok || len(fn.Params) == 0 || !isParam(fn, fa.X, 0) || !c.res.FixedContainer(summary.FieldVar(fa)) {
			return ""
		}
		name := lockstate.FieldClass(fa)
		if container != "" && container != name {
			return ""
		}
		container = name
	}
	return container
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
	for _, h := range held {
		if h.Key == id.Key || indexed(h.Key) || c.reported[h.Pos] {
			continue
		}
		if !ownerLock(h.Key, sh.owner) && h.Root != lockstate.RootGlobal {
			continue // another object's lock: lockorder's business
		}
		c.reported[h.Pos] = true
		c.report(analysis.Diagnostic{
			Pos:      h.Pos,
			Category: "above-shards",
			Message: fmt.Sprintf("%s is held above the shard lock %s (taken at %s): one lock serialises the shards again",
				h.Name, id.Name, srcname.At(c.pass.Fset, pos)),
			Related: []analysis.RelatedInformation{{Pos: pos, Message: id.Name + " locked here"}},
		})
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
			Message: fmt.Sprintf("shard lock %s taken while %s is held, in no fixed index order (%s): two goroutines locking the same pair in opposite orders deadlock",
				id.Name, h.Name, c.where(h)),
			Related: []analysis.RelatedInformation{{Pos: h.Pos, Message: h.Name + " locked here"}},
		})
		return
	}
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
