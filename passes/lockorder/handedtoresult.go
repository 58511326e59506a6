package lockorder

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// This file recognises a lock handed to the object a function returns:
//
//	func (i *Index) Terms(field string) (*TermIterator, error) {
//		i.mu.RLock()
//		if i.closed {
//			i.mu.RUnlock()
//			return nil, ErrClosed
//		}
//		return &TermIterator{index: i, ...}, nil // Close calls t.index.mu.RUnlock
//	}
//
// The return that keeps the lock stores its owner in a field of a new
// object whose type releases the lock through that field in one of its
// methods: the iterator holds the index's read lock until the caller
// closes it, the idiom of database cursors and dictionary iterators. Such
// a return releases the lock through the caller, as one that hands back
// the lock's Unlock does; the returns that keep it without handing it on
// are the leaks.

// handsToResult reports whether the exit ex returns a new object that
// keeps the owner of the lock id in a field, through which a method of the
// object's type releases it.
func (c *checker) handsToResult(f *summary.Func, ex exit, id lockstate.ID) bool {
	for i := range ex.ret.Results {
		alloc := newObject(ex.result(i))
		if alloc == nil {
			continue
		}
		for _, ref := range *alloc.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, st := range *fa.Referrers() {
				store, ok := st.(*ssa.Store)
				if !ok || store.Addr != fa {
					continue
				}
				owner := f.Flow.IDOf(store.Val).Key
				rest, below := strings.CutPrefix(id.Key, owner)
				if owner == "" || !below || rest == "" || (rest[0] != '.' && rest[0] != '[') {
					continue
				}
				if v := summary.FieldVar(fa); v != nil && c.releasedThrough(f.Fn.Prog, alloc.Type(), v.Name(), rest) {
					return true
				}
			}
		}
	}
	return false
}

// newObject returns the allocation a result returns, seen through the
// conversions to an interface or another named type, or nil.
func newObject(v ssa.Value) *ssa.Alloc {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.Alloc:
			if x.Heap {
				return x
			}
			return nil
		default:
			return nil
		}
	}
}

// releasedThrough reports whether a method of ptr (a pointer to a struct
// type of the package) releases the lock at path rest below the value held
// in its field named field: t.index.mu.RUnlock() for field index, rest
// ".mu".
func (c *checker) releasedThrough(prog *ssa.Program, ptr types.Type, field, rest string) bool {
	want := "p0." + field + rest
	mset := prog.MethodSets.MethodSet(ptr)
	for i := range mset.Len() {
		fn := prog.MethodValue(mset.At(i))
		m := c.res.Func(fn)
		if m == nil || m.Flow == nil {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if op := lockstate.OpOf(call.Common()); op.Kind == lockstate.Release && m.Flow.IDOf(op.Recv).Key == want {
					return true
				}
			}
		}
	}
	return false
}
