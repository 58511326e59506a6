package lockstate

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// LocalRoot returns the allocation of the function that the lock l is
// rooted at, or nil; cell is true when it is a variable holding a pointer
// (to an object allocated here or not) rather than the object itself.
func (r *Result) LocalRoot(l ID) (alloc *ssa.Alloc, cell bool) {
	if l.Root != RootLocal || len(l.Key) < len(l.Path) {
		return nil, false
	}
	alloc = r.ident.allocs[l.Key[:len(l.Key)-len(l.Path)]]
	if alloc == nil || alloc.Parent() != r.Fn {
		return nil, false
	}
	_, cell = alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Pointer)
	return alloc, cell
}

// CallRoot returns the call of the function whose result the lock l is
// rooted at (mb.mu, where mb := newBlock()), or nil.
func (r *Result) CallRoot(l ID) *ssa.Call {
	if l.Root != RootValue || len(l.Key) < len(l.Path) {
		return nil
	}
	call := r.ident.calls[l.Key[:len(l.Key)-len(l.Path)]]
	if call == nil || call.Parent() != r.Fn {
		return nil
	}
	return call
}
