package lockorder

import (
	"fmt"
	"go/token"
	"sort"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// An edge records that lock class to.Full was taken while from was held.
type edge struct {
	from   lockstate.Held
	to     lockstate.ID
	toMode lockstate.Mode
	pos    token.Pos
	via    string
}

// reportCycles reports each acquisition that, with another one elsewhere in
// the package, takes two lock classes in opposite orders. Only inversions
// with a write on each side are reported: readers alone do not deadlock.
func (c *checker) reportCycles() {
	type pair struct{ a, b string }
	byPair := map[pair][]edge{}
	for _, e := range c.edges {
		k := pair{e.from.Full, e.to.Full}
		byPair[k] = append(byPair[k], e)
	}
	reported := map[token.Pos]bool{}
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
			other, ok := opposite(e, back)
			if !ok || reported[e.pos] {
				continue
			}
			reported[e.pos] = true
			how := "locked"
			if e.via != "" {
				how = "locked through call of " + e.via
			}
			msg := fmt.Sprintf("%s %s while holding %s (%s); the opposite order is taken at %s: lock-order inversion",
				e.to.Name, how, e.from.Name, c.where(e.from), srcname.At(c.pass.Fset, other.pos))
			c.report(e.pos, "order-cycle", msg, e.from)
		}
	}
}

// opposite finds an edge of back that, with e, can deadlock: the two are
// different acquisitions and not both reads.
func opposite(e edge, back []edge) (edge, bool) {
	for _, b := range back {
		if b.pos == e.pos {
			continue
		}
		if e.toMode == lockstate.Read && e.from.Mode == lockstate.Read &&
			b.toMode == lockstate.Read && b.from.Mode == lockstate.Read {
			continue
		}
		return b, true
	}
	return edge{}, false
}
