package lockorder

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A loop iteration that takes a lock and goes round again with it still
// held on one path (a continue before the Unlock) while its other paths
// release it leaves the lock held: the lock state joins the paths at the
// loop's head, where the lock is then only may-held, so neither the
// double-lock check nor the leak check at the returns sees it. It is
// judged on the loop's back edges instead, with the leak rule's test and
// exemptions: held along one back edge, released along another, and not
// held when the loop is entered. A lock of the same instance on every
// turn (the receiver's) is then locked again by the next iteration: a
// double lock. A lock of the iteration's element (a range value's) is
// left locked for good: a leak. An element the loop keeps beyond the
// iteration (appended to a list, carried to the next turn, as in
// hand-over-hand locking) is left alone: something else may release it.

// A backEdge is an edge that goes round a loop, with the state along it.
type backEdge struct {
	from  *ssa.BasicBlock
	state lockstate.State
}

// loopLeaks reports the locks an iteration of one of f's loops keeps held
// on a back edge while another back edge releases them; back and entry are
// f's loop edges (loopEdges).
func (c *checker) loopLeaks(f *summary.Func, back, entry map[*ssa.BasicBlock][]backEdge) {
	if len(back) == 0 {
		return
	}
	var unlocks map[string][]ssa.Instruction
	checked := false
	reported := map[token.Pos]bool{}
	for _, head := range f.Fn.Blocks {
		edges := back[head]
		if len(edges) < 2 {
			continue
		}
		for _, e := range edges {
			for _, h := range e.state.Held {
				if !h.Must || h.Deferred || h.Inherited || h.Restored || h.Key == "" || c.goReleased[h.Key] || heldOn(entry[head], h.Key) {
					continue
				}
				if !checked {
					// Once per function, as for leaks.
					checked = true
					if c.leakContract(f.Fn) || releasesInRangeFunc(f.Fn) {
						return
					}
					unlocks = c.unlockSites(f)
				}
				if !releasedOnAnother(edges, head, h.Key, unlocks[h.Key]) || c.res.Unshared(f, h.ID, lastInstr(e.from)) || c.deferredMayRelease(f, h.Class) {
					continue
				}
				c.reportLoopLeak(f, head, e, h, reported)
			}
		}
	}
}

// loopEdges returns, by loop head, the edges of f that go round a loop
// and those that enter it (with a lock held). An edge into a block that
// makes no call and goes on to one block (a for loop's post statement)
// counts as an edge into that block; each path is counted once.
func (c *checker) loopEdges(f *summary.Func) (back, entry map[*ssa.BasicBlock][]backEdge) {
	dest := make([]*ssa.BasicBlock, len(f.Fn.Blocks))
	var target func(b *ssa.BasicBlock) *ssa.BasicBlock
	target = func(b *ssa.BasicBlock) *ssa.BasicBlock {
		if dest[b.Index] != nil {
			return dest[b.Index]
		}
		dest[b.Index] = b // a cycle of such blocks ends here
		if lockstate.Transparent(b) {
			dest[b.Index] = target(b.Succs[0])
		}
		return dest[b.Index]
	}
	for _, p := range f.Fn.Blocks {
		if lockstate.Transparent(p) && len(p.Preds) > 1 {
			continue // a join: the edges into it are the paths
		}
		for i, succ := range p.Succs {
			if lockstate.Transparent(succ) && len(succ.Preds) == 1 {
				continue // the edge out of succ is this path
			}
			s, ok := f.Flow.EdgeState(p, i)
			if !ok {
				continue
			}
			switch head := target(succ); {
			case head.Dominates(p):
				if back == nil {
					back = map[*ssa.BasicBlock][]backEdge{}
				}
				back[head] = append(back[head], backEdge{p, s})
			case len(s.Held) > 0:
				if entry == nil {
					entry = map[*ssa.BasicBlock][]backEdge{}
				}
				entry[head] = append(entry[head], backEdge{p, s})
			}
		}
	}
	return back, entry
}

// heldOn reports whether key is held, on some path, along one of edges.
func heldOn(edges []backEdge, key string) bool {
	for _, e := range edges {
		if _, ok := e.state.Lookup(key); ok {
			return true
		}
	}
	return false
}

// releasedOnAnother reports whether one of the back edges into head does
// not hold key on every path after an Unlock of it in the loop: the
// iteration released the lock on that path, rather than never taking it.
// (The lock can still be may-held there: a leak of an earlier turn comes
// round the loop.)
func releasedOnAnother(edges []backEdge, head *ssa.BasicBlock, key string, unlocks []ssa.Instruction) bool {
	for _, e := range edges {
		if h, ok := e.state.Lookup(key); ok && h.Must {
			continue
		}
		for _, u := range unlocks {
			if head.Dominates(u.Block()) && reachesInLoop(u, e.from, head) {
				return true
			}
		}
	}
	return false
}

// reachesInLoop reports whether instruction u can run before the end of
// block to in the same turn of the loop whose head is head: along a path
// that does not go through head.
func reachesInLoop(u ssa.Instruction, to, head *ssa.BasicBlock) bool {
	from := u.Block()
	if from == to {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{from: true}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if s == to {
				return true
			}
			if s == head || seen[s] {
				continue
			}
			seen[s] = true
			work = append(work, s)
		}
	}
	return false
}

// reportLoopLeak reports the lock h that the back edge e into head keeps
// held: at the continue (or goto) that makes the edge, at the end of the
// loop's body when control falls through it, or else (a loop made of
// gotos) at the acquisition.
func (c *checker) reportLoopLeak(f *summary.Func, head *ssa.BasicBlock, e backEdge, h lockstate.Held, reported map[token.Pos]bool) {
	addr := c.acquiredAddr(f, h)
	if addr == nil {
		return
	}
	variant := variesIn(addr, head)
	if variant && keptBeyondIteration(objectOf(addr)) {
		return
	}
	pos, what := token.NoPos, ""
	if br := c.branchOf(e.from); br != nil {
		pos, what = br.Pos(), br.Tok.String()+" with %s held"
	} else if body := c.loopBody(e.from); body != nil {
		pos, what = body.Rbrace, "%s held at the end of the loop body"
	} else {
		pos, what = h.Pos, "%s held when the loop goes round"
	}
	if !pos.IsValid() || reported[pos] {
		return
	}
	reported[pos] = true
	h.Name = c.lockName(h.ID, h.Pos)
	what = fmt.Sprintf(what, h.Name)
	if variant {
		c.report(pos, "leak", fmt.Sprintf("%s, but other paths of %s release it (%s): the next Lock of it waits forever",
			what, funcLabel(f.Fn), c.where(h)), h)
		return
	}
	c.report(pos, "double-lock", fmt.Sprintf("%s: the next iteration locks it again (%s)", what, c.where(h)), h)
}

// acquiredAddr returns the address of the lock h as the call that took it
// names it: the receiver of a Lock, or the argument of a wrapper call the
// lock hangs off; nil if not found.
func (c *checker) acquiredAddr(f *summary.Func, h lockstate.Held) ssa.Value {
	call, op := acquireCall(f, h)
	if call == nil {
		return nil
	}
	if op.Kind == lockstate.Acquire || op.Kind == lockstate.TryAcq {
		return op.Recv
	}
	for _, arg := range call.Call.Args {
		if under(h.Key, f.Flow.IDOf(arg).Key) {
			return arg
		}
	}
	return nil
}

// acquireCall returns the call of f at which h was taken, and the lock
// operation it is (NoOp for a wrapper); nil when there is none.
func acquireCall(f *summary.Func, h lockstate.Held) (*ssa.Call, lockstate.Op) {
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && call.Pos() == h.Pos {
				return call, f.Flow.OpOf(call.Common())
			}
		}
	}
	return nil, lockstate.Op{}
}

// variesIn reports whether the lock at address v is another instance on
// each turn of the loop whose head is head: its object, or an index on
// the way to it, is computed inside the loop (a range value, a phi of the
// head). Loads do not count, as lock identities see through them: s.cur.mu
// is one lock.
func variesIn(v ssa.Value, head *ssa.BasicBlock) bool {
	for range 32 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.IndexAddr:
			if inLoop(x.Index, head) {
				return true
			}
			v = x.X
		case *ssa.Index:
			if inLoop(x.Index, head) {
				return true
			}
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return inLoop(x, head)
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.Alloc:
			if stored := lockstate.CellValue(x); stored != nil {
				v = stored
				continue
			}
			return inLoop(x, head)
		default:
			return inLoop(v, head)
		}
	}
	return true
}

// inLoop reports whether v is computed in the loop whose head is head.
func inLoop(v ssa.Value, head *ssa.BasicBlock) bool {
	instr, ok := v.(ssa.Instruction)
	return ok && instr.Block() != nil && head.Dominates(instr.Block())
}

// objectOf returns the object a lock at address v belongs to: v without
// its field selections.
func objectOf(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return v
		}
	}
}

// keptBeyondIteration reports whether the object v can outlive the
// iteration that locked it: stored, appended, sent, captured, carried to
// the next turn by a phi, or handed to a call other than as a method's
// receiver.
func keptBeyondIteration(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var kept func(v ssa.Value) bool
	kept = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val == v {
					return true
				}
			case *ssa.Phi, *ssa.MapUpdate, *ssa.Send, *ssa.MakeClosure, *ssa.Return, *ssa.Go, *ssa.Defer, *ssa.Slice:
				return true
			case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.ChangeInterface:
				if kept(r.(ssa.Value)) {
					return true
				}
			case *ssa.Call:
				for i, arg := range r.Call.Args {
					if arg == v && (i > 0 || r.Call.Signature().Recv() == nil) {
						return true
					}
				}
			}
		}
		return false
	}
	return kept(v)
}

// loopBody returns the body of the innermost loop statement of f's syntax
// that holds the last source position block b (or its dominators) runs.
func (c *checker) loopBody(b *ssa.BasicBlock) *ast.BlockStmt {
	x := token.NoPos
	for ; b != nil && !x.IsValid(); b = b.Idom() {
		for _, instr := range b.Instrs {
			if pos := instr.Pos(); pos > x {
				x = pos
			}
		}
	}
	if !x.IsValid() {
		return nil
	}
	var body *ast.BlockStmt
	ast.Inspect(c.fn.Fn.Syntax(), func(n ast.Node) bool {
		if n == nil || n.Pos() > x || n.End() <= x {
			return false
		}
		switch n := n.(type) {
		case *ast.ForStmt:
			if n.Body.Pos() <= x {
				body = n.Body
			}
		case *ast.RangeStmt:
			if n.Body.Pos() <= x {
				body = n.Body
			}
		case *ast.FuncLit:
			return n == c.fn.Fn.Syntax()
		}
		return true
	})
	return body
}
