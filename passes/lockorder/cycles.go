package lockorder

import (
	"fmt"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// An edge records that lock to was taken while from was held. fromClass
// and toClass are their order classes (orderClass), which join the edges
// into cycles.
type edge struct {
	from               lockstate.Held
	to                 lockstate.ID
	fromClass, toClass string
	toMode             lockstate.Mode
	pos                token.Pos
	via                string
	deferred           bool // the call of via is deferred
	// related is set when the two instances are tied to each other (see
	// related); otherwise the edge is known only between their classes.
	related bool
	// flow and call are, when a callee takes the second lock, the lock
	// state of the function and the call, to find the chain down to the
	// acquisition (callChain).
	flow *lockstate.Result
	call *ssa.CallCommon
	// fromCaller is set when the first lock is one the function holds
	// from its entry and releases at from.Pos (releases.go).
	fromCaller bool
	// gates are the locks held for writing where the second lock is
	// taken (gates.go).
	gates []lockstate.Held
}

// fromWhere says where an edge's first lock was taken, or for a lock the
// function holds from its entry, where it releases it.
func (c *checker) fromWhere(e edge) string {
	if e.fromCaller {
		return "held from the caller, released at " + srcname.At(c.pass.Fset, e.from.Pos)
	}
	return c.where(e.from)
}

// chain returns the calls from e's call down to its second lock's
// acquisition, if a callee takes it.
func (c *checker) chain(e edge) []site {
	if e.call == nil {
		return nil
	}
	return c.callChain(e.flow, e.call, e.to.Key)
}

// reportCycles reports each acquisition that, with another one elsewhere in
// the package, takes two lock classes in opposite orders. Inversions of
// read locks alone are reported only when the package also write-locks
// both (canDeadlock).
func (c *checker) reportCycles() {
	type pair struct{ a, b string }
	byPair := map[pair][]edge{}
	for _, e := range c.edges {
		k := pair{e.fromClass, e.toClass}
		byPair[k] = append(byPair[k], e)
	}
	reported := map[token.Pos]bool{}
	defer func() {
		byInt := map[int]bool{}
		for p := range reported {
			byInt[int(p)] = true
		}
		c.reportPackageCycles(byInt)
		c.exportEdges()
	}()
	keys := make([]pair, 0, len(byPair))
	for k := range byPair {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].a != keys[j].a {
			return keys[i].a < keys[j].a
		}
		return keys[i].b < keys[j].b
	})
	for _, k := range keys {
		back := byPair[pair{k.b, k.a}]
		if len(back) == 0 {
			continue
		}
		for _, e := range byPair[k] {
			other, ok := c.opposite(e, back)
			if !ok || reported[e.pos] {
				continue
			}
			// The package's code may keep one order while a test that
			// reaches into its locks takes the other: the inversion is
			// the test's, and it is reported there only. The code is
			// not at fault.
			if !c.inTest(e.pos) && c.inTest(other.pos) {
				continue
			}
			reported[e.pos] = true
			how := "locked" + throughCall(e.via, e.deferred)
			if e.related && other.related && c.distinct(e, other) {
				// The related edge chosen locks other instances
				// (another owner's lock of the class): a related
				// edge that can lock the same ones makes it proven.
				if b, ok := c.sameInstances(e, back); ok {
					other = b
				}
			}
			if e.related && other.related && !c.distinct(e, other) {
				msg := fmt.Sprintf("%s %s while holding %s (%s); the opposite order is taken at %s: lock-order inversion%s",
					e.to.Name, how, e.from.Name, c.fromWhere(e), srcname.At(c.pass.Fset, other.pos), readersOnly(e, other))
				c.reportCycle(e, msg, c.cyclePaths(e, other), confidence.Warning, "")
				continue
			}
			// Known only between the classes: the instances may be
			// disjoint (two groups of clients), so it is plausible.
			msg := fmt.Sprintf("%s %s while holding %s (%s); the opposite order takes %s while holding %s at %s: lock-order inversion%s",
				e.to.Name, how, e.from.Name, c.fromWhere(e), other.to.Name, other.from.Name, srcname.At(c.pass.Fset, other.pos), readersOnly(e, other))
			c.reportCycle(e, msg, c.cyclePaths(e, other), confidence.Note, "the cycle is proven only between the lock classes "+e.from.Class+" and "+e.to.Class)
		}
	}
}

// cyclePaths returns the related locations of a cycle reported at e, with
// other its opposite edge: both paths.
func (c *checker) cyclePaths(e, other edge) []site {
	return append(c.edgePath(e, c.chain(e), false), c.edgePath(other, c.chain(other), true)...)
}

// reportCycle reports an order-cycle at e's acquisition with the given
// related locations, the first of which is e's first lock.
func (c *checker) reportCycle(e edge, msg string, sites []site, l confidence.Level, why string) {
	d := analysis.Diagnostic{Pos: e.pos, Category: "order-cycle", Message: msg, Related: relatedInfo(sites)}
	c.rep.ReportLevel(d, l, why)
}

// opposite finds an edge of back that, with e, can deadlock: the two are
// different acquisitions and not both reads. One on the same side of the
// tests as e (both in the package's code, or both in its tests) is
// preferred, and then a related edge, which makes the cycle proven.
func (c *checker) opposite(e edge, back []edge) (edge, bool) {
	var found edge
	ok := false
	rank := func(b edge) int {
		r := 0
		if c.inTest(b.pos) == c.inTest(e.pos) {
			r += 2
		}
		if b.related {
			r++
		}
		return r
	}
	for _, b := range back {
		if !c.canDeadlock(e, b) {
			continue
		}
		if !ok || rank(b) > rank(found) {
			found, ok = b, true
		}
	}
	return found, ok
}

// canDeadlock reports whether edges e and b, in opposite orders, can
// deadlock: two different acquisitions, not under one gate lock (gated),
// not both reads on both sides
// unless each lock has writers. Readers alone share both locks; but while a
// writer waits on a sync.RWMutex no new reader gets in, so with a writer
// queued on each lock, each reader waits behind a writer that waits for
// the other reader (the rlock-reentry deadlock, across two locks).
func (c *checker) canDeadlock(e, b edge) bool {
	if b.pos == e.pos || gated(e, b) {
		return false
	}
	if !allReads(e, b) {
		return true
	}
	return c.res.WriteLocked(e.from.Class) && c.res.WriteLocked(e.to.Class)
}

// allReads reports whether both locks of both edges are taken for reading.
func allReads(e, b edge) bool {
	return e.toMode == lockstate.Read && e.from.Mode == lockstate.Read &&
		b.toMode == lockstate.Read && b.from.Mode == lockstate.Read
}

// readersOnly returns the message's ending for a cycle of read locks only:
// the writers are what make it deadlock.
func readersOnly(e, b edge) string {
	if allReads(e, b) {
		return " of read locks, which deadlocks once a writer waits on each"
	}
	return ""
}

// inTest reports whether pos lies in a _test.go file.
func (c *checker) inTest(pos token.Pos) bool {
	return srcname.InTest(c.pass.Fset, pos)
}

// related reports whether the lock being taken (id, hanging off c.root when
// known) is tied to the held lock h as an instance, not only by class: both
// hang off the same variable, parameter or receiver, one is a package-level
// lock (a single instance), or one's object is an element of a container of
// the other's object (a store's lock, then each of its replicas'; a
// registry's lock and one of its per-key locks).
func (c *checker) related(h lockstate.Held, id lockstate.ID) bool {
	if h.Root == lockstate.RootGlobal || id.Root == lockstate.RootGlobal {
		return true
	}
	if rootKey(h.Key) == rootKey(id.Key) {
		return true
	}
	// A key's lock and the lock of the registry whose map holds it.
	if kl, ok := c.keys[id.Key]; ok && rootKey(c.fn.Flow.IDOf(kl.owner).Key) == rootKey(h.Key) {
		return true
	}
	if kl, ok := c.keys[h.Key]; ok && rootKey(c.fn.Flow.IDOf(kl.owner).Key) == rootKey(id.Key) {
		return true
	}
	return c.root != nil && c.elementOf(c.root, rootKey(h.Key))
}

// elementOf reports whether v (a lock or an object it hangs off) is reached
// from an element of a container field of the object whose key is owner.
func (c *checker) elementOf(v ssa.Value, owner string) bool {
	for range 16 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
			continue
		case *ssa.UnOp:
			if ia, ok := x.X.(*ssa.IndexAddr); ok {
				return c.containerOf(ia.X, owner)
			}
			v = x.X
			continue
		case *ssa.Index:
			return c.containerOf(x.X, owner)
		case *ssa.Lookup:
			return c.containerOf(x.X, owner)
		case *ssa.Extract:
			switch t := x.Tuple.(type) {
			case *ssa.Lookup:
				return c.containerOf(t.X, owner)
			case *ssa.Next:
				if r, ok := t.Iter.(*ssa.Range); ok {
					return c.containerOf(r.X, owner)
				}
			}
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.Call:
			return c.lookedUpIn(x, owner)
		}
		return false
	}
	return false
}

// lookedUpIn reports whether call returns an element of a container field
// of one of its arguments whose key is owner: n := g.node(name), where
// node returns g.nodes[name] (or nil), is an element of g's map.
func (c *checker) lookedUpIn(call *ssa.Call, owner string) bool {
	i, ok := summary.LookupArg(c.fn.Fn.Pkg, call)
	return ok && rootKey(c.fn.Flow.IDOf(call.Call.Args[i]).Key) == owner
}

// containerOf reports whether the container value x is loaded from a field
// of the object whose key is owner.
func (c *checker) containerOf(x ssa.Value, owner string) bool {
	if u, ok := x.(*ssa.UnOp); ok {
		x = u.X
	}
	fa, ok := x.(*ssa.FieldAddr)
	return ok && rootKey(c.fn.Flow.IDOf(fa.X).Key) == owner
}

// rootKey is the root of a lock key: "p0" for "p0.shards[i].mu".
func rootKey(key string) string {
	if i := strings.IndexAny(key, ".["); i >= 0 {
		return key[:i]
	}
	return key
}
