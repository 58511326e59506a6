package shardlock

import (
	_ "embed"
	"fmt"
	"go/token"
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
// call that returns a pointer into an indexed container (c.shardFor(k)).
type shard struct {
	owner     string    // root key of the container's owner, such as "p0"
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
					c.callTakesShard(f, instr, ev.State.MustHeld())
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
					held := ev.State.MustHeld()
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
		if indexed(t.Lock.Key) {
			c.aboveShards(t.Lock, shard{owner: rootKey(t.Lock.Key)}, call.Pos(), held)
		}
	}
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

// shardOf reports whether the lock whose address is v is a shard's lock.
func (c *checker) shardOf(f *summary.Func, v ssa.Value, b *ssa.BasicBlock) (shard, bool) {
	for range 16 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return shard{}, false
			}
			v = x.X
		case *ssa.IndexAddr:
			if _, phi := x.Index.(*ssa.Phi); phi || inLoop(b) {
				// A loop over the elements (or an index chosen by
				// branches): not one shard picked by key.
				return shard{}, false
			}
			cont := f.Flow.IDOf(x.X)
			return shard{owner: rootKey(cont.Key), container: cont.Class, index: x.Index}, cont.Class != ""
		case *ssa.Call:
			callee := x.Call.StaticCallee()
			if callee == nil || !returnsShard(callee) || len(x.Call.Args) == 0 {
				return shard{}, false
			}
			recv := f.Flow.IDOf(x.Call.Args[0])
			return shard{owner: rootKey(recv.Key), container: shardContainer(callee)}, true
		default:
			return shard{}, false
		}
	}
	return shard{}, false
}

// returnsShard reports whether every return of fn returns the address of an
// element of an array or slice field: a shard selector such as shardFor.
func returnsShard(fn *ssa.Function) bool {
	return shardContainer(fn) != ""
}

// shardContainer names the container a shard selector indexes, or "".
func shardContainer(fn *ssa.Function) string {
	container := ""
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return ""
		}
		ia, ok := ret.Results[0].(*ssa.IndexAddr)
		if !ok {
			return ""
		}
		fa, ok := ia.X.(*ssa.FieldAddr)
		if !ok {
			if u, isLoad := ia.X.(*ssa.UnOp); isLoad {
				fa, ok = u.X.(*ssa.FieldAddr)
			}
		}
		if !ok {
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

// rootKey is the root of a lock key: "p0" for "p0.shards[i].mu".
func rootKey(key string) string {
	if i := strings.IndexAny(key, ".["); i >= 0 {
		return key[:i]
	}
	return key
}

func indexed(key string) bool { return strings.Contains(key, "[") }

// aboveShards reports the locks of the shards' owner (or package-level
// locks) held while a shard's lock is taken.
func (c *checker) aboveShards(id lockstate.ID, sh shard, pos token.Pos, held []lockstate.Held) {
	for _, h := range held {
		if h.Key == id.Key || indexed(h.Key) || c.reported[h.Pos] {
			continue
		}
		if rootKey(h.Key) != sh.owner && h.Root != lockstate.RootGlobal {
			continue
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
