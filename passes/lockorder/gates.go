package lockorder

import (
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file recognises inversions that a common outer lock serialises, a
// gate lock:
//
//	func (c *Conn) shutdown() {
//		c.destructorM.Lock()
//		defer c.destructorM.Unlock()
//		c.m.Lock()
//		c.closeM.Lock() // m, then closeM
//		...
//	}
//
//	func (c *Conn) Reconnect() {
//		c.destructorM.Lock()
//		defer c.destructorM.Unlock()
//		c.closeM.Lock()
//		c.m.Lock() // closeM, then m: both under destructorM
//		...
//	}
//
// Two goroutines that take the pair in opposite orders on one connection
// both hold its destructorM first, so one waits for the other before it
// takes either lock: they cannot deadlock.

// gatesAt returns the locks held for writing when the acquisition being
// checked takes its lock, besides the first lock of each edge: those held
// in the function (held, without the locks a callee releases around the
// acquisition), and those every caller holds that the function has not
// released there (summary.Result.CallersHoldAt).
func (c *checker) gatesAt(held []lockstate.Held) []lockstate.Held {
	var gates []lockstate.Held
	for _, h := range held {
		if h.Mode == lockstate.Write && !h.Inherited {
			gates = append(gates, h)
		}
	}
	return append(gates, lockstate.WithoutClasses(c.res.CallersHoldAt(c.fn, c.at), c.outside)...)
}

// gated reports whether edges e and b, which take the same two classes in
// opposite orders, are both taken under one gate: a lock of one class,
// held for writing at both, and tied to one lock of the cycle in each (a
// field of the same object, or a package-level lock): to e's first lock
// and to b's second, or to e's second and to b's first. Where the cycle
// closes, those are one lock, and so is the gate.
func gated(e, b edge) bool {
	for _, g := range e.gates {
		if g.Class == "" || g.Class == e.from.Class || g.Class == e.to.Class {
			continue
		}
		for _, h := range b.gates {
			if h.Class != g.Class || g.Root == lockstate.RootGlobal && h.Key != g.Key {
				continue
			}
			if lockstate.SameOwner(e.from.ID, g.ID) && lockstate.SameOwner(b.to, h.ID) ||
				lockstate.SameOwner(e.to, g.ID) && lockstate.SameOwner(b.from.ID, h.ID) {
				return true
			}
		}
	}
	return false
}
