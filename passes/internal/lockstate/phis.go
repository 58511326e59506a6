package lockstate

import (
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Locks held into a φ-node are renamed to it. Hand-over-hand traversals
// lock the next node, unlock the current one and move on:
//
//	i.mu.Lock()
//	for i.parent != nil && i.empty() {
//		parent := i.parent
//		parent.mu.Lock()
//		i.mu.Unlock()
//		i = parent
//	}
//	i.mu.Unlock()
//
// In SSA, i is a φ of the loop header, fed by the node locked before the
// loop and by parent along the back edge. Keyed by the values that root
// them, the lock taken before the loop and the one taken in the body were
// two locks, each held on one path into the header, and the final Unlock
// of the φ released neither: a leak on every such loop. Along each edge
// into a block, a held lock rooted at the value the edge feeds to a φ is
// the φ's lock from then on.
//
// The rename is sound only when the value is not used again as itself
// once the edge is taken, or the lock would be known by the φ's name
// where the code still calls it by the value's. That holds for a value
// defined inside the loop the edge closes (every later use is of a later
// instance), and for one none of whose other uses can run after the edge.

// A rename maps the root of the locks held along one edge.
type rename struct{ from, to ID }

// phiRenames returns the renames along b's i'th successor edge that apply
// to s. Whether a value is used again after the edge is only asked for
// the values that root a lock of s, once each, so that code holding no
// lock into a loop pays nothing for it. The renames applied are kept for
// EdgeState.
func (a *analysis) phiRenames(b *ssa.BasicBlock, i int, s State) []rename {
	if succ := b.Succs[i]; len(succ.Instrs) == 0 {
		return nil
	} else if _, ok := succ.Instrs[0].(*ssa.Phi); !ok {
		return nil
	}
	key := [2]int{b.Index, i}
	cands, ok := a.candidates[key]
	if !ok {
		cands = a.phiCandidates(b, b.Succs[i])
		if a.candidates == nil {
			a.candidates = map[[2]int][]phiCandidate{}
		}
		a.candidates[key] = cands
	}
	var out []rename
	for k := range cands {
		c := &cands[k]
		if !s.roots(c.from.Key) {
			continue
		}
		if !c.decided {
			c.decided, c.gone = true, a.goneAfter(c.v, b.Succs[i])
			if c.gone {
				if a.res.renames == nil {
					a.res.renames = map[[2]int][]rename{}
				}
				a.res.renames[key] = append(a.res.renames[key], c.rename)
			}
		}
		if c.gone {
			out = append(out, c.rename)
		}
	}
	return out
}

// A phiCandidate is a rename along an edge, pending the question whether
// its value is used again after the edge.
type phiCandidate struct {
	rename
	v             ssa.Value
	decided, gone bool
}

// phiCandidates returns the renames the φs of succ could make along the
// edge from b.
func (a *analysis) phiCandidates(b, succ *ssa.BasicBlock) []phiCandidate {
	j := slices.Index(succ.Preds, b)
	if j < 0 {
		return nil
	}
	var phis []*ssa.Phi
	fed := map[ssa.Value]int{} // how many φs the edge feeds each value to
	for _, instr := range succ.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if j < len(phi.Edges) {
			phis = append(phis, phi)
			fed[phi.Edges[j]]++
		}
	}
	var out []phiCandidate
	for _, phi := range phis {
		v := phi.Edges[j]
		if fed[v] != 1 || !canRoot(v) {
			continue
		}
		from, to := a.res.ident.of(v), a.res.ident.of(phi)
		if from.Key == "" || from.Key == to.Key {
			continue
		}
		out = append(out, phiCandidate{rename: rename{from, to}, v: v})
	}
	return out
}

// roots reports whether a lock of s, held or with a deferred release,
// hangs off key.
func (s State) roots(key string) bool {
	for _, h := range s.Held {
		if under(h.Key, key) {
			return true
		}
	}
	for _, k := range s.Pending {
		if under(k, key) {
			return true
		}
	}
	return false
}

// canRoot reports whether locks can hang off v as a value of this
// function: a pointer or an interface (a sync.Locker) that an
// instruction computes or a parameter holds, not a constant, a global or
// a function. Loop counters and other plain values are left out at once.
func canRoot(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Parameter, ssa.Instruction:
	default:
		return false
	}
	switch v.Type().Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return true
	}
	return false
}

// goneAfter reports whether no use of v, other than the φs of succ, can
// run on a path that has taken an edge into succ.
func (a *analysis) goneAfter(v ssa.Value, succ *ssa.BasicBlock) bool {
	if instr, ok := v.(ssa.Instruction); ok {
		if vb := instr.Block(); vb != succ && succ.Dominates(vb) {
			// Defined inside the region succ heads: any use after the
			// edge is of an instance defined after it.
			return true
		}
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	reach := a.reachableFrom(succ)
	for _, r := range *refs {
		if phi, ok := r.(*ssa.Phi); ok && phi.Block() == succ {
			continue
		}
		if reach[r.Block().Index] {
			return false
		}
	}
	return true
}

// reachableFrom returns the blocks reachable from b (b included), by
// block index, computed once per block.
func (a *analysis) reachableFrom(b *ssa.BasicBlock) []bool {
	if r, ok := a.reach[b]; ok {
		return r
	}
	seen := make([]bool, len(b.Parent().Blocks))
	stack := []*ssa.BasicBlock{b}
	seen[b.Index] = true
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.Succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				stack = append(stack, s)
			}
		}
	}
	if a.reach == nil {
		a.reach = map[*ssa.BasicBlock][]bool{}
	}
	a.reach[b] = seen
	return seen
}

// renamed returns s with the locks rooted at each rename's from rooted at
// its to instead; deferred releases follow their locks.
func (s State) renamed(rs []rename) State {
	if len(rs) == 0 {
		return s
	}
	changed := false
	held := make([]Held, 0, len(s.Held))
	for _, h := range s.Held {
		for _, r := range rs {
			if id, ok := h.rerooted(r.from, r.to); ok {
				h.ID, changed = id, true
				break
			}
		}
		held = append(held, h)
	}
	pending := make([]string, 0, len(s.Pending))
	for _, k := range s.Pending {
		for _, r := range rs {
			if under(k, r.from.Key) {
				k, changed = r.to.Key+k[len(r.from.Key):], true
				break
			}
		}
		pending = append(pending, k)
	}
	if !changed {
		return s
	}
	out := State{Released: s.Released}
	sort.SliceStable(held, func(i, j int) bool { return held[i].Key < held[j].Key })
	for _, h := range held {
		if n := len(out.Held); n > 0 && out.Held[n-1].Key == h.Key {
			// Two names for one lock: it is held as surely as the surer.
			prev := &out.Held[n-1]
			prev.Must = prev.Must || h.Must
			prev.Deferred = prev.Deferred || h.Deferred
			continue
		}
		out.Held = append(out.Held, h)
	}
	for _, k := range pending {
		out = out.withPending(k)
	}
	return out
}

// under reports whether key names root or a lock below it.
func under(key, root string) bool {
	if !strings.HasPrefix(key, root) {
		return false
	}
	return len(key) == len(root) || key[len(root)] == '.' || key[len(root)] == '['
}

// rerooted returns id with its root from replaced by to, if id hangs off
// from.
func (id ID) rerooted(from, to ID) (ID, bool) {
	if !under(id.Key, from.Key) {
		return id, false
	}
	suffix := id.Key[len(from.Key):]
	nameSuffix := suffix
	if strings.HasPrefix(id.Name, from.Name) {
		nameSuffix = id.Name[len(from.Name):]
	}
	out := id
	out.Key = to.Key + suffix
	out.Name = to.Name + nameSuffix
	out.Root, out.RootIndex = to.Root, to.RootIndex
	out.Path = to.Path + suffix
	out.NamePath = to.NamePath + nameSuffix
	return out, true
}
