package lockstate

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The states at block entry join the paths that reach the block, so a
// lock held on one path into it and released on another is only may-held
// there: a loop's continue that keeps the lock, a break that leaves it
// held into the return the releasing path ends at too. The per-edge
// states below keep those paths apart for the one step that tells: the
// edge itself, and, for a block that ends in a return, the return along
// each of its predecessor edges.

// An EdgeReturn is the state at a return when its block is entered along
// one predecessor edge.
type EdgeReturn struct {
	Pred  int // the index of the edge among the block's Preds
	State State
}

// EdgeState returns the state that flows along b's i'th successor edge,
// and false when b does not run or the edge is ruled out by a constant.
func (r *Result) EdgeState(b *ssa.BasicBlock, i int) (State, bool) {
	if !r.Reachable(b) || b.Index >= len(r.out) || DeadEdge(b, i) {
		return State{}, false
	}
	return edgeOf(b, i, r.out[b.Index], r.tries).renamed(r.renames[[2]int{b.Index, i}]), true
}

// ReturnsAlong returns, for a return whose block the paths reach with
// different must-held locks, the state at the return along each live
// predecessor edge of its block; nil when the paths agree (the return's
// event has the state), or the function was too big to split them.
func (r *Result) ReturnsAlong(ret *ssa.Return) []EdgeReturn {
	return r.byEdge[ret]
}

// Transparent reports whether b leaves the lock state as it finds it and
// has one successor: it makes no call, so the state along its outgoing
// edge is the state along any edge into it (a loop's post statement,
// i++).
func Transparent(b *ssa.BasicBlock) bool {
	if len(b.Succs) != 1 {
		return false
	}
	for _, instr := range b.Instrs {
		if _, ok := instr.(ssa.CallInstruction); ok {
			return false
		}
	}
	return true
}

// returnsAlongEdges computes ReturnsAlong from the final entry states in:
// a return block is replayed once per predecessor edge only when a lock
// is must-held along some edge into it and not along another, and the
// replays together cost at most one more pass over the function, so the
// analysis stays linear in its size.
func (a *analysis) returnsAlongEdges(in []*State) {
	fn := a.res.Fn
	budget := 0
	for _, b := range fn.Blocks {
		budget += len(b.Instrs)
	}
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || in[b.Index] == nil || len(b.Preds) < 2 {
			continue
		}
		var along []EdgeReturn
		split := false
		for j, p := range b.Preds {
			i := slices.Index(p.Succs, b)
			if i < 0 || in[p.Index] == nil || DeadEdge(p, i) {
				continue
			}
			s := a.edge(p, i, a.res.out[p.Index])
			split = split || mustOnlyHere(s, *in[b.Index])
			along = append(along, EdgeReturn{Pred: j, State: s})
		}
		cost := len(b.Instrs) * len(along)
		if !split || cost > budget {
			continue
		}
		budget -= cost
		for k := range along {
			along[k].State = a.block(b, along[k].State, false)
		}
		if a.res.byEdge == nil {
			a.res.byEdge = map[*ssa.Return][]EdgeReturn{}
		}
		a.res.byEdge[ret] = along
	}
}

// mustOnlyHere reports whether s, the state along one edge into a block,
// must-hold a lock that joined, the block's entry state, does not.
func mustOnlyHere(s, joined State) bool {
	for _, h := range s.Held {
		if !h.Must {
			continue
		}
		if j, ok := joined.Lookup(h.Key); !ok || !j.Must {
			return true
		}
	}
	return false
}
