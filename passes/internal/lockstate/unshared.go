package lockstate

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// LocalObject returns the object allocated in the function that the lock l
// belongs to (l is rooted at it), or nil: a variable holding a pointer to
// somebody else's object is not one.
func (r *Result) LocalObject(l ID) *ssa.Alloc {
	if l.Root != RootLocal || len(l.Key) < len(l.Path) {
		return nil
	}
	alloc := r.ident.allocs[l.Key[:len(l.Key)-len(l.Path)]]
	if alloc == nil || alloc.Parent() != r.Fn {
		return nil
	}
	if _, cell := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Pointer); cell {
		return nil
	}
	return alloc
}
