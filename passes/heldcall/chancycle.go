package heldcall

import (
	"go/token"
	"go/types"

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

// A chanRecv is a receive from a channel in the package.
type chanRecv struct {
	f  *summary.Func
	at token.Pos
}

// receivers returns the receives, anywhere in the package, from channels
// of class (a field such as (*pkg.Bus).events, or a package variable).
func (c *checker) receivers(class string) []chanRecv {
	if c.recvs == nil {
		c.recvs = map[string][]chanRecv{}
		for _, f := range c.res.Funcs {
			if f.Flow == nil {
				continue
			}
			for _, b := range f.Fn.Blocks {
				for _, instr := range b.Instrs {
					var chans []ssa.Value
					switch instr := instr.(type) {
					case *ssa.UnOp:
						if instr.Op == token.ARROW {
							chans = append(chans, instr.X)
						}
					case *ssa.Select:
						for _, st := range instr.States {
							if st.Dir == types.RecvOnly {
								chans = append(chans, st.Chan)
							}
						}
					}
					for _, ch := range chans {
						if k := f.Flow.IDOf(ch).Class; k != "" {
							c.recvs[k] = append(c.recvs[k], chanRecv{f, instr.Pos()})
						}
					}
				}
			}
		}
	}
	return c.recvs[class]
}

// sendCycle returns a receive from the channel of send whose function
// takes one of the held locks' classes, and that lock: the receiver cannot
// drain the channel while the sender holds the lock.
func (c *checker) sendCycle(f *summary.Func, send *ssa.Send, held []lockstate.Held) (chanRecv, lockstate.Held, bool) {
	class := f.Flow.IDOf(send.Chan).Class
	if class == "" {
		return chanRecv{}, lockstate.Held{}, false
	}
	for _, r := range c.receivers(class) {
		for _, t := range r.f.Summary.Takes {
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

// cycleNote completes a channel finding with the receiver that takes the
// lock.
func (c *checker) cycleNote(fd *finding, r chanRecv, h lockstate.Held) {
	fd.what += ", whose receiver (" + srcname.At(c.pass.Fset, r.at) + ") takes " + c.lockName(h) + " before it receives again"
	fd.related = append(fd.related, analysis.RelatedInformation{Pos: r.at, Message: "the receiver, which takes " + c.lockName(h)})
}
