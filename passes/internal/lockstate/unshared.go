package lockstate

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Unshared reports whether the lock l belongs to an object allocated in
// this function that no other goroutine can reach yet at instruction at:
// before at, on no path, has the object been stored anywhere, sent,
// captured by a closure, passed to a call or returned. Such a lock is
// uncontended (func open() { s := &store{}; s.mu.Lock(); ...; os.ReadFile }).
func (r *Result) Unshared(l ID, at ssa.Instruction) bool {
	if l.Root != RootLocal || len(l.Key) < len(l.Path) {
		return false
	}
	alloc := r.ident.allocs[l.Key[:len(l.Key)-len(l.Path)]]
	if alloc == nil || alloc.Parent() != r.Fn {
		return false
	}
	if _, cell := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Pointer); cell {
		return false // a variable holding a pointer to somebody's object
	}
	for _, esc := range escapes(alloc) {
		if precedes(esc, at) {
			return false
		}
	}
	return true
}

// escapes returns the instructions through which the object alloc points
// to can become reachable from elsewhere.
func escapes(alloc *ssa.Alloc) []ssa.Instruction {
	var out []ssa.Instruction
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value)
	visit = func(v ssa.Value) {
		if seen[v] {
			return
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef:
				// Addresses inside the object: the lock's own and the
				// fields it guards do not give the object away.
			case *ssa.UnOp:
				if r.Op != token.MUL {
					out = append(out, ref)
				}
			case *ssa.Store:
				if r.Val == v {
					out = append(out, ref) // the pointer stored somewhere
				}
			case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.Phi, *ssa.ChangeInterface:
				visit(r.(ssa.Value))
			case *ssa.BinOp, *ssa.If:
				// Comparisons.
			default:
				out = append(out, ref) // calls, sends, closures, returns, ...
			}
		}
	}
	visit(alloc)
	return out
}

// precedes reports whether instruction x can run before instruction y in
// their function: earlier in y's block, or in a block from which y's block
// can be reached.
func precedes(x, y ssa.Instruction) bool {
	bx, by := x.Block(), y.Block()
	if bx == by {
		for _, instr := range bx.Instrs {
			if instr == x {
				return true
			}
			if instr == y {
				break
			}
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), bx.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == by {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return false
}

// Shared returns the locks of held that other goroutines can contend for
// at instruction at: those of objects not Unshared.
func (r *Result) Shared(held []Held, at ssa.Instruction) []Held {
	out := held[:0:0]
	for _, h := range held {
		if !r.Unshared(h.ID, at) {
			out = append(out, h)
		}
	}
	return out
}
