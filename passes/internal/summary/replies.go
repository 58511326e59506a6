package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An actor's request carries the channel it is answered on. Once the
// actor's loop has taken the request, the handler it calls answers on every
// path, so the requester's receive of the answer is the same wait as the
// hand-off, not another:
//
//	out := make(chan *Subscription, 1)
//	select {
//	case p.addSub <- &addSubReq{sub: sub, resp: out}: // waits for the loop
//	case <-p.ctx.Done():
//		return nil, p.ctx.Err()
//	}
//	return <-out, nil // the handler always answers
//
//	case req := <-p.addSub: // processLoop
//		p.handleAddSubscription(req) // ends in req.resp <- sub
//
// The request is a struct the requester builds with the channel in one of
// its fields and sends on a channel whose receivers are all goroutines of
// the package; each passes what it receives to a handler of the package
// and to nothing else, and the handler sends on (or closes) that field of
// its parameter before each of its returns. What the handler does counts
// for the requester (a site at the hand-off).

// requestReplies returns the handlers that answer the request object req,
// which fn builds and sends before at, on the channel in its field index
// field; nil when the shape does not hold.
func (a *analyzer) requestReplies(fn *ssa.Function, req *ssa.Alloc, field int, at ssa.Instruction) []*ssa.Function {
	var sends []ssa.Instruction
	for _, ref := range *req.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			for _, fr := range *r.Referrers() {
				switch u := fr.(type) {
				case *ssa.Store:
				case *ssa.UnOp:
					if !onlyReceived(u) {
						return nil // read and handed on
					}
				default:
					return nil // its address handed on: not a plain request
				}
			}
		case *ssa.Send:
			if r.X != ssa.Value(req) {
				return nil
			}
			sends = append(sends, r)
		case *ssa.Select:
			sends = append(sends, r)
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	if len(sends) == 0 {
		return nil
	}
	var handlers []*ssa.Function
	for _, s := range sends {
		if !Precedes(s, at) {
			return nil
		}
		hs := a.requestHandlers(fn, s, req, field)
		if hs == nil {
			return nil
		}
		for _, h := range hs {
			if !slices.Contains(handlers, h) {
				handlers = append(handlers, h)
			}
		}
	}
	return handlers
}

// requestHandlers returns the handlers of the request req that send sends:
// nil unless every receiver of its channel is a goroutine of the package
// that hands the request only to a package function that answers on
// field before each of its returns.
func (a *analyzer) requestHandlers(fn *ssa.Function, send ssa.Instruction, req *ssa.Alloc, field int) []*ssa.Function {
	var ch ssa.Value
	for _, s := range sendsOf(send) {
		if s.v == ssa.Value(req) {
			ch = s.ch
		}
	}
	if ch == nil {
		return nil
	}
	var out []*ssa.Function
	ok := a.eachReceiver(fn, ch, func(r ssa.Instruction, k chanKey, _ *ssa.Function) bool {
		h := a.handlerOf(r, k, field)
		out = append(out, h)
		return h != nil
	})
	if !ok {
		return nil
	}
	return out
}

// handlerOf returns the package function the receive r (of channel k)
// hands what it receives to, when that is its only use and the function
// answers on the request's field before each of its returns.
func (a *analyzer) handlerOf(r ssa.Instruction, k chanKey, field int) *ssa.Function {
	got := a.received(r, k)
	if len(got) != 1 {
		return nil
	}
	var handler *ssa.Function
	for _, ref := range *got[0].Referrers() {
		switch u := ref.(type) {
		case *ssa.Call:
			callee := StaticCallee(u.Common())
			if callee == nil || handler != nil || a.funcs[a.declared(callee)] == nil {
				return nil
			}
			i := slices.Index(u.Call.Args, got[0])
			callee = a.declared(callee)
			if i < 0 || i >= len(callee.Params) || !answersOnEveryReturn(callee, callee.Params[i], field) {
				return nil
			}
			handler = callee
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return handler
}

// answersOnEveryReturn reports whether every return of h is preceded, in
// its block or a block dominating it, by a send on (or a close of) the
// channel in field index field of the request p.
func answersOnEveryReturn(h *ssa.Function, p *ssa.Parameter, field int) bool {
	answers := map[*ssa.BasicBlock]int{} // block -> index of the first answer
	for _, b := range h.Blocks {
		for i, instr := range b.Instrs {
			var ch ssa.Value
			switch x := instr.(type) {
			case *ssa.Send:
				ch = x.Chan
			case *ssa.Call:
				if isClose(x.Common()) {
					ch = x.Call.Args[0]
				}
			}
			if ch != nil && fieldOfParam(ch, p, field) {
				if _, seen := answers[b]; !seen {
					answers[b] = i
				}
			}
		}
	}
	if len(answers) == 0 {
		return false
	}
	returns := 0
	for _, b := range h.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		returns++
		answered := false
		for d := b; d != nil && !answered; d = d.Idom() {
			if i, ok := answers[d]; ok && (d != b || i < slices.Index(b.Instrs, ssa.Instruction(ret))) {
				answered = true
			}
		}
		if !answered {
			return false
		}
	}
	return returns > 0
}

// fieldOfParam reports whether ch is field index field of the request p:
// p.resp, loaded through p's pointer.
func fieldOfParam(ch ssa.Value, p *ssa.Parameter, field int) bool {
	switch c := ch.(type) {
	case *ssa.UnOp:
		if fa, ok := c.X.(*ssa.FieldAddr); ok && c.Op == token.MUL {
			return fa.X == ssa.Value(p) && fa.Field == field
		}
	case *ssa.Field:
		return c.X == ssa.Value(p) && c.Field == field
	}
	return false
}

// requestHandlersAt returns the handlers that answer the requests instr
// (a send, or a select with send cases) hands to an actor: what they do
// runs while the requester waits for the answer.
func (a *analyzer) requestHandlersAt(fn *ssa.Function, instr ssa.Instruction) []*ssa.Function {
	var out []*ssa.Function
	for _, s := range sendsOf(instr) {
		req, ok := s.v.(*ssa.Alloc)
		if !ok {
			continue
		}
		for _, ref := range *req.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if _, isChan := fa.Type().(*types.Pointer).Elem().Underlying().(*types.Chan); !isChan {
				continue
			}
			for _, h := range a.requestHandlers(fn, instr, req, fa.Field) {
				if !slices.Contains(out, h) {
					out = append(out, h)
				}
			}
		}
	}
	return out
}

// answerField reports whether recv receives from a field of a request fn
// builds (err := <-req.resp), a field set only to a channel fn makes for
// it, that the actor the request is sent to answers on before recv.
func (a *analyzer) answerField(fn *ssa.Function, recv *ssa.UnOp) bool {
	ld, ok := recv.X.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	req, ok := fa.X.(*ssa.Alloc)
	if !ok || req.Parent() != fn {
		return false
	}
	made := 0
	for _, ref := range *req.Referrers() {
		f, ok := ref.(*ssa.FieldAddr)
		if !ok || f.Field != fa.Field {
			continue
		}
		for _, fr := range *f.Referrers() {
			if st, ok := fr.(*ssa.Store); ok {
				mc, ok := st.Val.(*ssa.MakeChan)
				if !ok || len(*mc.Referrers()) != 1 {
					return false // a channel made elsewhere, or kept too
				}
				made++
			}
		}
	}
	return made == 1 && a.requestReplies(fn, req, fa.Field, recv) != nil
}
