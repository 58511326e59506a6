package heldcall

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A send under a lock waits for a receiver; when the receiver takes the
// same lock before it receives again (a background loop that receives,
// then calls a callback that locks it), the two wait for each other as
// soon as the channel is full. A buffer only postpones that, so such a
// send is reported even on a buffered channel.

// The same holds the other way round: a receive under a lock waits for a
// sender or a closer, and one that takes the same lock first (a background
// loop that locks for its work and closes done when it exits) cannot get
// there while the receiver holds it: a shutdown that holds the lock while
// it waits for the loop to finish.

// A chanRecv is a receive from, a send on or a close of a channel in the
// package: the other side of a channel operation.
type chanRecv struct {
	f    *summary.Func
	at   token.Pos
	role string // "sender" or "closer", for the other side of a receive
}

// receivers returns the receives, anywhere in the package, from channels
// of class (a field such as (*pkg.Bus).events, or a package variable).
func (c *checker) receivers(class string) []chanRecv {
	c.indexChannels()
	return c.recvs[class]
}

// signallers returns the sends on and closes of channels of class,
// anywhere in the package.
func (c *checker) signallers(class string) []chanRecv {
	c.indexChannels()
	return c.sigs[class]
}

// indexChannels fills, in one pass over the package on first use, the
// receives and the sends and closes by channel class.
func (c *checker) indexChannels() {
	if c.recvs != nil {
		return
	}
	c.recvs, c.sigs, c.goBodies = map[string][]chanRecv{}, map[string][]chanRecv{}, map[*ssa.Function]bool{}
	for _, f := range c.res.Funcs {
		if f.Flow == nil {
			continue
		}
		add := func(index map[string][]chanRecv, ch ssa.Value, at token.Pos, role string) {
			if k := f.Flow.IDOf(ch).Class; k != "" {
				index[k] = append(index[k], chanRecv{f, at, role})
			}
		}
		for _, b := range f.Fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.UnOp:
					if instr.Op == token.ARROW {
						add(c.recvs, instr.X, instr.Pos(), "")
					}
				case *ssa.Select:
					for _, st := range instr.States {
						if st.Dir == types.RecvOnly {
							add(c.recvs, st.Chan, instr.Pos(), "")
						}
					}
				case *ssa.Send:
					add(c.sigs, instr.Chan, instr.Pos(), "sender")
				case *ssa.Go:
					if g := instr.Call.StaticCallee(); g != nil {
						c.goBodies[g] = true
					}
				case ssa.CallInstruction: // close(ch), also deferred
					if b, ok := instr.Common().Value.(*ssa.Builtin); ok && b.Name() == "close" && len(instr.Common().Args) == 1 {
						add(c.sigs, instr.Common().Args[0], instr.Pos(), "closer")
					}
				}
			}
		}
	}
}

// recvCycle returns a send on or close of the channel a receive waits on,
// in a function that takes one of the held locks' classes, and that lock.
func (c *checker) recvCycle(f *summary.Func, ch ssa.Value, held []lockstate.Held) (chanRecv, lockstate.Held, bool) {
	class := f.Flow.IDOf(ch).Class
	if class == "" {
		return chanRecv{}, lockstate.Held{}, false
	}
	return c.takesHeld(c.signallers(class), held)
}

// takesHeld returns the first of sides whose function takes the class of
// one of the held locks, in a mode that waits for the holder: itself or
// through a func value it calls whose targets the package decides (a
// loop's hook field, set by its owner to a closure that locks the owner).
func (c *checker) takesHeld(sides []chanRecv, held []lockstate.Held) (chanRecv, lockstate.Held, bool) {
	for _, r := range sides {
		takes := summary.Takes(r.f.Summary)
		for _, g := range c.funcValueTargets(r.f) {
			if s := c.res.SummaryOf(g); s != nil {
				takes = append(slices.Clip(takes), summary.Takes(s)...)
			}
		}
		for _, t := range takes {
			for _, h := range held {
				readers := t.Mode == lockstate.Read && h.Mode == lockstate.Read // readers do not wait for each other
				if h.Class != "" && t.Lock.Class == h.Class && !readers {
					return r, h, true
				}
			}
		}
	}
	return chanRecv{}, lockstate.Held{}, false
}

// funcValueTargets returns the functions that f's calls of func values
// can run when the package decides every value (summary.Origin.Closed),
// worked out once per function: every channel finding asks for its other
// sides'.
func (c *checker) funcValueTargets(f *summary.Func) []*ssa.Function {
	if out, ok := c.valueTargets[f.Fn]; ok {
		return out
	}
	if c.valueTargets == nil {
		c.valueTargets = map[*ssa.Function][]*ssa.Function{}
	}
	var out []*ssa.Function
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() || summary.StaticCallee(&call.Call) != nil {
				continue
			}
			if _, builtin := call.Call.Value.(*ssa.Builtin); builtin {
				continue
			}
			if o := c.res.FuncOrigin(f.Fn, call.Call.Value); o.Closed() {
				out = append(out, o.Targets...)
			}
		}
	}
	c.valueTargets[f.Fn] = out
	return out
}

// sendsVia returns the finding for a call, under the locks held, of a
// function that puts into a buffered channel (summary.Summary.Sends)
// whose receivers take one of those locks before they receive again, or
// nil: the send of a helper (k.track(id)) waits like one written here.
// Only receivers that run as the package's goroutines count, the
// background loops that drain the channel: a caller that waits for its
// own reply on a channel made for it with room for the one reply
// (pebble's manual compactions) holds the lock only before it sends its
// request.
func (c *checker) sendsVia(f *summary.Func, call *ssa.CallCommon, name string, s *summary.Summary, args, bindings []ssa.Value, held []lockstate.Held) *finding {
	for _, r := range c.res.SendsAt(s, f.Fn, call, args, bindings) {
		hs := c.blockedBy(r, held)
		if len(hs) == 0 {
			continue
		}
		var loops []chanRecv
		for _, rr := range c.receivers(r.Chan) {
			if c.goBodies[rr.f.Fn] {
				loops = append(loops, rr)
			}
		}
		if rr, h, ok := c.takesHeld(loops, hs); ok {
			fd := &finding{category: "chan", what: "call of " + name + ", which sends on a buffered channel: " + c.chain(r), held: []lockstate.Held{h}, sides: true}
			c.cycleNote(fd, rr, h)
			return fd
		}
	}
	return nil
}

// sendCycle returns a receive from ch, a channel a send (or a select's
// send case) puts a value into, whose function takes one of the held
// locks' classes, and that lock: the receiver cannot drain the channel
// while the sender holds the lock.
func (c *checker) sendCycle(f *summary.Func, ch ssa.Value, held []lockstate.Held) (chanRecv, lockstate.Held, bool) {
	class := f.Flow.IDOf(ch).Class
	if class == "" {
		return chanRecv{}, lockstate.Held{}, false
	}
	return c.takesHeld(c.receivers(class), held)
}

// onlyDrainedSend reports whether send, on a channel made with a capacity,
// empties the channel before it puts its value in (summary.DrainedSend)
// and is the only send on the channel's class in the package. Each run of
// it holds the locks held there, so no other send can take the slot its
// drain freed: it never waits, whoever receives.
func (c *checker) onlyDrainedSend(f *summary.Func, send *ssa.Send) bool {
	class := f.Flow.IDOf(send.Chan).Class
	if class == "" || !summary.DrainedSend(send) || !c.res.BufferedSend(f.Flow, send.Chan) {
		return false
	}
	for _, s := range c.signallers(class) {
		if s.role == "sender" && (s.f != f || s.at != send.Pos()) {
			return false
		}
	}
	return true
}

// cycleNote completes a channel finding with the receiver that takes the
// lock.
func (c *checker) cycleNote(fd *finding, r chanRecv, h lockstate.Held) {
	fd.cycle = true
	fd.what += ", whose receiver (" + srcname.At(c.pass.Fset, r.at) + ") takes " + c.lockName(h) + " before it receives again"
	fd.related = append(fd.related, analysis.RelatedInformation{Pos: r.at, Message: "the receiver, which takes " + c.lockName(h)})
}

// recvCycleNote completes a receive finding with the sender or closer that
// takes the lock before it gets to the channel.
func (c *checker) recvCycleNote(fd *finding, r chanRecv, h lockstate.Held) {
	fd.cycle = true
	fd.what += ", whose " + r.role + " (" + srcname.At(c.pass.Fset, r.at) + ") takes " + c.lockName(h) + " first"
	fd.related = append(fd.related, analysis.RelatedInformation{Pos: r.at, Message: "the " + r.role + ", which takes " + c.lockName(h)})
}
