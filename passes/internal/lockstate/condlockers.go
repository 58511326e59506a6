package lockstate

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// CondLockers maps the class of a *sync.Cond (or sync.Cond) field, such as
// "(*pkg.Catalog).ready", to the lock of the same object that every Cond
// the package stores there is made on: c.ready = sync.NewCond(&c.mu),
// sync.NewCond(c.mu.RLocker()), &sync.Cond{L: &c.mu} or c.ready.L =
// &c.mu. Taking c.ready.L is then taking c.mu (its read side for an
// RLocker).
type CondLockers map[string]CondLocker

// A CondLocker is the lock a Cond field's L stands for: a field path below
// the Cond's owner, and whether L is the read side of an RWMutex.
type CondLocker struct {
	Path []FieldStep
	Read bool
}

// A FieldStep is one field selection: the field's name and the named
// struct type that declares it.
type FieldStep struct {
	Name  string
	Owner *types.Named
}

// FindCondLockers scans the stores of funcs for Conds stored into fields
// and keeps the fields whose every store ties L to one lock of the Cond's
// owner. A field with any other store (a Cond from elsewhere, two locks)
// is left out: its L is not known.
func FindCondLockers(funcs []*ssa.Function) CondLockers {
	found := map[string]CondLocker{}
	open := map[string]bool{}
	note := func(class string, l CondLocker, ok bool) {
		if class == "" || open[class] {
			return
		}
		if prev, seen := found[class]; !ok || seen && !sameLocker(prev, l) {
			open[class] = true
			delete(found, class)
			return
		}
		found[class] = l
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				switch {
				case isCondField(fa):
					// c.ready = sync.NewCond(x) or c.ready = &sync.Cond{L: x}
					l, ok := storedCondLocker(fa.X, st.Val)
					note(FieldClass(fa), l, ok)
				case isCondLField(fa):
					// c.ready.L = x, on a Cond held by value.
					if owner, ok := fa.X.(*ssa.FieldAddr); ok && isCondField(owner) {
						l, ok := lockerOf(owner.X, st.Val)
						note(FieldClass(owner), l, ok)
					}
				}
			}
		}
	}
	return found
}

// storedCondLocker returns the locker of the Cond val stored into a field
// of owner.
func storedCondLocker(owner, val ssa.Value) (CondLocker, bool) {
	switch v := val.(type) {
	case *ssa.Call:
		if isSyncFunc(v.Call.StaticCallee(), "NewCond") && len(v.Call.Args) == 1 {
			return lockerOf(owner, v.Call.Args[0])
		}
	case *ssa.Alloc:
		// &sync.Cond{L: x}: the literal's one store of L.
		var l CondLocker
		ok := false
		for _, ref := range *v.Referrers() {
			fa, isFA := ref.(*ssa.FieldAddr)
			if !isFA || !isCondLField(fa) {
				continue
			}
			for _, r := range *fa.Referrers() {
				if st, isStore := r.(*ssa.Store); isStore && st.Addr == fa {
					if ok {
						return CondLocker{}, false // two stores of L
					}
					l, ok = lockerOf(owner, st.Val)
					if !ok {
						return CondLocker{}, false
					}
				}
			}
		}
		return l, ok
	}
	return CondLocker{}, false
}

// lockerOf returns the lock that the Locker v stands for when it is a lock
// below owner (&owner.mu) or the read side of one (owner.mu.RLocker()).
func lockerOf(owner, v ssa.Value) (CondLocker, bool) {
	v = Unbox(v)
	read := false
	if call, ok := v.(*ssa.Call); ok {
		rw := rlockerOf(call)
		if rw == nil {
			return CondLocker{}, false
		}
		v, read = rw, true
	}
	var path []FieldStep
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		name, named := fieldOf(fa.X.Type(), fa.Field)
		if named == nil {
			return CondLocker{}, false
		}
		path = append([]FieldStep{{Name: name, Owner: named}}, path...)
		if fa.X == owner {
			if !IsLockType(fa.Type()) {
				// A lock wrapper (type Mutex struct{ internalMutex }):
				// the lock its promoted Lock takes.
				inner, ok := PromotedLock(fa.Type())
				if !ok {
					return CondLocker{}, false
				}
				path = append(path, inner...)
			}
			return CondLocker{Path: path, Read: read}, true
		}
		v = fa.X
	}
	return CondLocker{}, false
}

// PromotedLock returns the embedded fields through which t, a pointer to a
// struct type, gets its Lock and Unlock methods from a sync.Mutex or
// sync.RWMutex it holds by value: a wrapper such as
//
//	type Mutex struct{ internalMutex }
//	type internalMutex struct{ sync.Mutex }
//
// whose Lock is the inner Mutex's. A Locker of the wrapper stands for
// that inner lock, the one its callers' Lock calls take.
func PromotedLock(t types.Type) ([]FieldStep, bool) {
	lock, lockIdx, _ := types.LookupFieldOrMethod(t, true, nil, "Lock")
	_, unlockIdx, _ := types.LookupFieldOrMethod(t, true, nil, "Unlock")
	fn, ok := lock.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" || len(lockIdx) < 2 || len(unlockIdx) != len(lockIdx) ||
		!slices.Equal(lockIdx[:len(lockIdx)-1], unlockIdx[:len(unlockIdx)-1]) {
		return nil, false
	}
	var steps []FieldStep
	cur := t
	for _, i := range lockIdx[:len(lockIdx)-1] {
		if p, ok := cur.Underlying().(*types.Pointer); ok {
			cur = p.Elem()
		}
		named, _ := types.Unalias(cur).(*types.Named)
		st, ok := cur.Underlying().(*types.Struct)
		if !ok || named == nil || i >= st.NumFields() {
			return nil, false
		}
		f := st.Field(i)
		if _, ptr := f.Type().Underlying().(*types.Pointer); ptr {
			return nil, false // a lock behind a pointer: another object's
		}
		steps = append(steps, FieldStep{Name: f.Name(), Owner: named})
		cur = f.Type()
	}
	if !IsLockType(cur) {
		return nil, false
	}
	return steps, true
}

// Unbox returns the value v converts to an interface or to another type,
// through any number of conversions (a lock converted to sync.Locker).
func Unbox(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// rlockerOf returns the RWMutex whose RLocker call is c, or nil.
func rlockerOf(c *ssa.Call) ssa.Value {
	callee := c.Call.StaticCallee()
	if callee == nil || len(c.Call.Args) != 1 {
		return nil
	}
	obj, _ := callee.Object().(*types.Func)
	if obj == nil || obj.Name() != "RLocker" || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return nil
	}
	return c.Call.Args[0]
}

func sameLocker(a, b CondLocker) bool {
	if a.Read != b.Read || len(a.Path) != len(b.Path) {
		return false
	}
	for i := range a.Path {
		if a.Path[i] != b.Path[i] {
			return false
		}
	}
	return true
}

func isSyncFunc(fn *ssa.Function, name string) bool {
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Name() == name
}

// isCondField reports whether fa selects a field of type sync.Cond or
// *sync.Cond.
func isCondField(fa *ssa.FieldAddr) bool {
	t := fa.Type().Underlying().(*types.Pointer).Elem()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return isSyncNamed(t, "Cond")
}

// isCondLField reports whether fa selects the L field of a sync.Cond.
func isCondLField(fa *ssa.FieldAddr) bool {
	name, named := fieldOf(fa.X.Type(), fa.Field)
	return name == "L" && named != nil && isSyncNamed(named, "Cond")
}

func isSyncNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == name
}

// condLocker returns the identity of the lock that the Cond's L field at
// addr (the FieldAddr of L) stands for, and whether it is the read side.
func (k *identifier) condLocker(addr *ssa.FieldAddr) (ID, bool, bool) {
	if len(k.conds) == 0 || !isCondLField(addr) {
		return ID{}, false, false
	}
	cond := addr.X
	if load, ok := cond.(*ssa.UnOp); ok {
		cond = load.X // a *sync.Cond field, loaded
	}
	field, ok := cond.(*ssa.FieldAddr)
	if !ok {
		return ID{}, false, false
	}
	l, ok := k.conds[FieldClass(field)]
	if !ok {
		return ID{}, false, false
	}
	id := k.of(field.X)
	for _, step := range l.Path {
		id = id.child("."+step.Name, "."+step.Name, fieldClass(step.Owner, id, step.Name), "."+step.Name)
	}
	return id, l.Read, true
}

// readSide reports whether the Locker v, whose Lock or Unlock is called, is
// the read side of an RWMutex: an RLocker, or a Cond's L made on one.
func (k *identifier) readSide(v ssa.Value) bool {
	v = Unbox(v)
	if load, ok := v.(*ssa.UnOp); ok {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			_, read, ok := k.condLocker(fa)
			return ok && read
		}
	}
	if call, ok := v.(*ssa.Call); ok {
		return rlockerOf(call) != nil
	}
	return false
}

// OpOf is OpOf for a call in the analysed function, with the Lock and
// Unlock of a Locker that stands for an RWMutex's read side (an RLocker,
// or the L of a Cond made on one) read as RLock and RUnlock.
func (r *Result) OpOf(c *ssa.CallCommon) Op {
	op := OpOf(c)
	if c.IsInvoke() && op.Kind != NoOp && r.ident.readSide(op.Recv) {
		op.Mode = Read
	}
	return op
}
