package lockstate

import (
	"go/types"
)

// This file recognises condition variables of a module's own: a struct
// that keeps the Locker it is made on, as sync.Cond does, and whose Wait
// releases that Locker while it waits. A cancellable Cond is the usual
// one:
//
//	type Cond struct {
//		L sync.Locker
//		m sync.Mutex
//		w map[chan struct{}]struct{}
//	}
//
//	func NewCond(l sync.Locker) *Cond { return &Cond{L: l, w: ...} }
//
//	func (c *Cond) Wait(ctx context.Context) error {
//		... c.L.Unlock(); defer c.L.Lock(); select { ... }
//	}
//
// Whether Wait really releases the Locker is its summary's business (the
// lock released where it blocks); this file only names the Locker field
// and the constructors that fill it.

// CondLikeLocker returns the name of the Locker field of t (a named
// struct, or a pointer to one) when t looks like a condition variable: it
// has exactly one field of type sync.Locker and a Wait method. sync.Cond
// itself is left to the rules for it.
func CondLikeLocker(t types.Type) (string, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || isSyncNamed(n, "Cond") {
		return "", false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	field := ""
	for i := range st.NumFields() {
		if isSyncNamed(st.Field(i).Type(), "Locker") {
			if field != "" {
				return "", false // two Lockers: which one Wait releases is not known
			}
			field = st.Field(i).Name()
		}
	}
	if field == "" {
		return "", false
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, n.Obj().Pkg(), "Wait")
	if _, isFunc := obj.(*types.Func); !isFunc {
		return "", false
	}
	return field, true
}

// CondLikeConstructor returns, for a function of signature sig that
// returns a condition variable of the module's own (CondLikeLocker), the
// index of its one sync.Locker parameter: the Locker the new Cond keeps
// (lock.NewCond(&m.mu)).
func CondLikeConstructor(sig *types.Signature) (int, bool) {
	if sig.Recv() != nil || sig.Results().Len() == 0 {
		return 0, false
	}
	if _, ok := CondLikeLocker(sig.Results().At(0).Type()); !ok {
		return 0, false
	}
	idx := -1
	for i := range sig.Params().Len() {
		if isSyncNamed(sig.Params().At(i).Type(), "Locker") {
			if idx >= 0 {
				return 0, false
			}
			idx = i
		}
	}
	return idx, idx >= 0
}
