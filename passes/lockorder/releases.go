package lockorder

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A function that releases a per-key lock it did not take (its caller
// holds it: a URL's lock that URLLock returned with) while it holds a
// lock it took itself acquired that lock with the first one held:
// releasing B under A means B was held when A was taken, an order edge
// like any other. hugo's URLUnlock read-locks the URL map, then unlocks
// the URL's lock, against URLLock's map lock, then URL lock: the
// goroutine that holds the URL lock cannot release it while URLLock waits
// for it holding the map. Only per-key locks of a registry count: a lock
// of its own may be released by another goroutine than the one that took
// it (syscall's ForkLock, which the last of the forking goroutines
// releases under forkingLock).

// releaseEdges records, for a release in f of a lock f holds from its
// entry, an edge from that lock to each lock f took before and still
// holds (held: what f must hold at the release), at the acquisition of
// the latter.
func (c *checker) releaseEdges(f *summary.Func, call *ssa.Call, held []lockstate.Held) {
	op := lockstate.OpOf(call.Common())
	if op.Kind != lockstate.Release {
		return
	}
	released := f.Flow.IDOf(op.Recv)
	for _, h := range held {
		if h.Key == released.Key {
			return // taken here: an ordinary critical section
		}
	}
	if _, perKey := c.keys[released.Key]; !perKey {
		// A lock of its own may be handed between goroutines (a
		// counted fork lock the last user releases): the releaser need
		// not be the goroutine that took it. A per-key lock looked up
		// in a registry to be released is its taker's.
		return
	}
	released = c.withKeyClass(released)
	released.Name = c.lockName(released, call.Pos())
	from := c.orderClass(released)
	if from == "" {
		return
	}
	first := lockstate.Held{ID: released, Mode: op.Mode, Pos: call.Pos()}
	for _, h := range held {
		if h.Inherited || h.Restored || !h.Pos.IsValid() || c.goReleased[h.Key] {
			continue
		}
		second := c.withKeyClass(h.ID)
		to := c.orderClass(second)
		if to == "" || to == from {
			continue
		}
		c.root = op.Recv
		c.edges = append(c.edges, edge{
			from: first, to: second,
			fromClass: from, toClass: to, toMode: h.Mode,
			pos:        h.Pos,
			related:    c.related(first, h.ID),
			flow:       f.Flow,
			fromCaller: true,
		})
		c.root = nil
	}
}
