package lockorder

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A cycle's finding carries both of its paths as related locations: for
// each edge, where the first lock was taken, where the second was and,
// when a callee takes it, the calls down to the acquisition. The chain
// through callees is found again in the package's functions, from the
// callee's summary (which lock of its own it takes) to the instruction
// that takes it, memoised by function and lock: each function is scanned
// at most once per lock it takes.

// A site is a related location: a position and what happens there, and
// for a site of a call chain, the function it is in.
type site struct {
	pos token.Pos
	msg string
	fn  *ssa.Function
}

// chainKey identifies a lock taken by a function, named in its frame.
type chainKey struct {
	fn  *ssa.Function
	key string
}

// edgePath returns the related locations of an edge: its first lock, its
// second lock's acquisition (or the call that leads to it, unless it is
// the finding's own position: opposite is false) and the chain through
// callees. opposite marks the other edge of a cycle.
func (c *checker) edgePath(e edge, chain []site, opposite bool) []site {
	first := e.from.Name + " locked here"
	if e.fromCaller {
		first = e.from.Name + ", held from the caller, released here"
	}
	if opposite {
		first += " (opposite order)"
	}
	out := []site{{pos: e.from.Pos, msg: first}}
	if opposite {
		msg := e.to.Name + " then locked here"
		if e.via != "" {
			msg = e.to.Name + " then locked via " + e.via + " here"
		}
		out = append(out, site{pos: e.pos, msg: msg})
	}
	return append(out, chain...)
}

// related turns sites into related information, dropping repeats.
func relatedInfo(sites []site) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	seen := map[site]bool{}
	for _, s := range sites {
		s.fn = nil
		if !s.pos.IsValid() || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
	}
	return out
}

// callChain returns the calls from the call c (in the function whose lock
// state is flow) down to the acquisition of the lock the caller names
// key: the call sites inside the callees and the acquisition itself. It
// returns nil when the chain leaves the package.
func (c *checker) callChain(flow *lockstate.Result, common *ssa.CallCommon, key string) []site {
	g, k, ok := c.calleeTake(flow, common, key)
	if !ok {
		return nil
	}
	return c.takenIn(g, k, 0)
}

// calleeTake returns the callee of a call in this package and the lock,
// named in the callee's frame, that the caller names key.
func (c *checker) calleeTake(flow *lockstate.Result, common *ssa.CallCommon, key string) (*summary.Func, string, bool) {
	callee := summary.StaticCallee(common)
	if callee == nil {
		return nil, "", false
	}
	g := c.res.Func(callee)
	if g == nil && callee.Origin() != nil {
		g = c.res.Func(callee.Origin())
	}
	if g == nil || g.Flow == nil || g.Summary == nil {
		return nil, "", false
	}
	var bindings []ssa.Value
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	for _, t := range summary.Takes(g.Summary) {
		if id, ok := summary.RebaseTake(flow, t.Lock, common.Args, bindings); ok && id.Key == key {
			return g, t.Lock.Key, true
		}
	}
	return nil, "", false
}

// takenIn returns where g takes its lock key: its own acquisition, or the
// call leading to it followed by the callee's chain.
func (c *checker) takenIn(g *summary.Func, key string, depth int) []site {
	ck := chainKey{g.Fn, key}
	if sites, ok := c.chains[ck]; ok {
		return sites
	}
	if c.chains == nil {
		c.chains = map[chainKey][]site{}
	}
	c.chains[ck] = nil // a recursive chain ends here
	var out []site
	name := strings.TrimPrefix(summary.SSAFuncName(g.Fn, nil), c.pass.Pkg.Name()+".")
	var calls []*ssa.Call
	for _, b := range g.Fn.Blocks {
		if !g.Flow.Reachable(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			op := lockstate.OpOf(call.Common())
			switch op.Kind {
			case lockstate.Acquire:
				if id := g.Flow.IDOf(op.Recv); id.Key == key && out == nil {
					out = []site{{call.Pos(), c.lockName(id, call.Pos()) + " locked here, in " + name, g.Fn}}
				}
			case lockstate.NoOp:
				calls = append(calls, call)
			}
		}
	}
	if out == nil && depth < summary.MaxChain {
		for _, call := range calls {
			h, k, ok := c.calleeTake(g.Flow, call.Common(), key)
			if !ok {
				if callee := c.externalTake(g.Flow, call.Common(), key); callee != "" {
					// Another package's function takes it: the chain
					// ends at the call.
					out = []site{{call.Pos(), "calls " + callee + " here", g.Fn}}
					break
				}
				continue
			}
			if rest := c.takenIn(h, k, depth+1); rest != nil {
				callee := strings.TrimPrefix(summary.SSAFuncName(h.Fn, nil), c.pass.Pkg.Name()+".")
				out = append([]site{{call.Pos(), "calls " + callee + " here", g.Fn}}, rest...)
				break
			}
		}
	}
	c.chains[ck] = out
	return out
}

// externalTake returns the name of the callee of a call when it is a
// function of another package that takes the lock the caller names key,
// or "".
func (c *checker) externalTake(flow *lockstate.Result, common *ssa.CallCommon, key string) string {
	callee := summary.StaticCallee(common)
	if callee == nil || callee.Pkg == c.res.Pkg || c.res.Func(callee) != nil {
		return ""
	}
	_, takes := c.res.CallEffects(flow, common, summary.Takes)
	for _, t := range takes {
		if t.Lock.Key == key {
			return summary.SSAFuncName(callee, c.pass.Pkg)
		}
	}
	return ""
}
