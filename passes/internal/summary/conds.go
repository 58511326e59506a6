package summary

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// condLocks finds, for the package, the lock class each sync.Cond class is
// tied to: sync.NewCond(&c.mu) stored into c.cond, &sync.Cond{L: &c.mu}, or
// c.cond.L = &c.mu.
func (a *analyzer) condLocks(funcs []*ssa.Function, flows map[*ssa.Function]*lockstate.Result) map[string]string {
	out := map[string]string{}
	forEachStore(funcs, flows, func(flow *lockstate.Result, st *ssa.Store) {
		// c.cond.L = x, or the L field of a composite literal.
		if fa, ok := st.Addr.(*ssa.FieldAddr); ok && isCondL(fa) {
			lock := a.lockerWrapperClass(funcs, flows, st.Val)
			if lock == "" && onlyInCond(st.Val) {
				lock = condOwnL
			}
			if lock == "" {
				lock = a.lockClassOf(flow.Fn, st.Val, 0)
			}
			if stored := storedFieldClass(flow, st.Val); stored != "" {
				lock = stored // a new lock the struct keeps: its field names it
			}
			if lock == "" {
				return
			}
			if cond := flow.IDOf(fa.X).Class; cond != "" {
				out[cond] = lock
				a.noteCondSource(cond, st.Val)
			}
			// &sync.Cond{L: ...} stored into a field or variable, or
			// the value sync.Cond{L: ...} copied into one.
			if alloc, ok := fa.X.(*ssa.Alloc); ok {
				for _, ref := range *alloc.Referrers() {
					for _, st2 := range storesOf(alloc, ref) {
						if cond := flow.IDOf(st2.Addr).Class; cond != "" {
							out[cond] = lock
							a.noteCondSource(cond, st.Val)
						}
					}
				}
			}
			return
		}
		// c.cond = sync.NewCond(x), or a constructor of a Cond of the
		// module's own (lock.NewCond(x)).
		if call, ok := st.Val.(*ssa.Call); ok {
			l, ok := condMadeOn(call)
			if !ok {
				return
			}
			lock := a.lockClassOf(flow.Fn, l, 0)
			if onlyInCond(l) {
				lock = condOwnL
				if own := condLikeOwnL(call); own != "" {
					lock = own // lock.NewCond(&sync.Mutex{}): its L field's class
				}
			}
			if stored := storedFieldClass(flow, l); stored != "" {
				lock = stored // a new lock the struct keeps: its field names it
			}
			if cond := flow.IDOf(st.Addr).Class; cond != "" && lock != "" {
				out[cond] = lock
				a.noteCondSource(cond, l)
			}
		}
	})
	return out
}

// storesOf returns the stores that ref, a referrer of alloc, makes of it:
// the store of the pointer itself, or of the value a load of it copies.
func storesOf(alloc *ssa.Alloc, ref ssa.Instruction) []*ssa.Store {
	switch ref := ref.(type) {
	case *ssa.Store:
		if ref.Val == alloc {
			return []*ssa.Store{ref}
		}
	case *ssa.UnOp:
		if ref.Op != token.MUL || ref.X != alloc {
			return nil
		}
		var out []*ssa.Store
		for _, r := range *ref.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Val == ssa.Value(ref) {
				out = append(out, st)
			}
		}
		return out
	}
	return nil
}

// storedFieldClass returns, for a new lock v handed to a Cond, the class
// of the one field the function also stores it into (lock :=
// new(sync.Mutex); &Pool{lock: lock, cond: sync.NewCond(lock)}): the
// Cond's L is that field's lock. It returns "" for a lock stored into no
// field or into fields of two classes.
func storedFieldClass(flow *lockstate.Result, v ssa.Value) string {
	alloc, ok := lockstate.Unbox(v).(*ssa.Alloc)
	if !ok || !alloc.Heap {
		return ""
	}
	class := ""
	var visit func(x ssa.Value) bool
	visit = func(x ssa.Value) bool {
		for _, ref := range *x.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Val != x {
					continue
				}
				if fa, isField := ref.Addr.(*ssa.FieldAddr); !isField || isCondL(fa) {
					continue // not a field, or the Cond's own L
				}
				c := flow.IDOf(ref.Addr).Class
				if c == "" || class != "" && c != class {
					return false
				}
				class = c
			case *ssa.MakeInterface, *ssa.ChangeType:
				if !visit(ref.(ssa.Value)) {
					return false
				}
			}
		}
		return true
	}
	if !visit(alloc) {
		return ""
	}
	return class
}

// condOwnL is the class of a lock taken through a Cond's L field
// (c.cond.L.Lock()): the class of a lock that only its Cond holds.
const condOwnL = "(*sync.Cond).L"

// onlyInCond reports whether the lock v, handed to a Cond as its L, is a
// new lock nothing else refers to (sync.NewCond(new(sync.Mutex))): it can
// only be locked through the Cond's L.
func onlyInCond(v ssa.Value) bool {
	alloc, ok := lockstate.Unbox(v).(*ssa.Alloc)
	if !ok {
		return false
	}
	n := 0
	for _, ref := range *alloc.Referrers() {
		if _, ok := ref.(*ssa.DebugRef); !ok {
			n++
		}
	}
	return n == 1
}

// lockClassOf returns the class of the lock v (in fn) points to: its own
// class, or for a parameter (vs.init(..., mu *sync.Mutex) storing
// vs.cond.L = mu) the one class the package passes at every call site. A
// new lock passed there is named by the one field the caller also keeps it
// in (mu := new(sync.Mutex); &stream{mu: mu, ring: newRing(mu)}).
func (a *analyzer) lockClassOf(fn *ssa.Function, v ssa.Value, depth int) string {
	v = lockstate.Unbox(v)
	if flow := a.flows[fn]; flow != nil {
		if class := flow.IDOf(v).Class; class != "" {
			// A lock wrapper stands for the lock its promoted Lock
			// takes (&n.mu of a type Mutex struct{ internalMutex }).
			if inner, ok := lockstate.PromotedLock(v.Type()); ok {
				for _, step := range inner {
					class += "." + step.Name
				}
			}
			return class
		}
	}
	p, ok := v.(*ssa.Parameter)
	if !ok || depth > 4 || fn.Parent() != nil {
		return ""
	}
	i := indexOf(fn.Params, p)
	class := ""
	for _, cs := range a.indexed().calls[declaredFn(fn)] {
		if i < 0 || i >= len(cs.call.Args) {
			return ""
		}
		c := a.lockClassOf(cs.fn, cs.call.Args[i], depth+1)
		if flow := a.flows[cs.fn]; flow != nil {
			if stored := storedFieldClass(flow, cs.call.Args[i]); stored != "" {
				c = stored
			}
		}
		if c == "" || class != "" && c != class {
			return ""
		}
		class = c
	}
	return class
}

// lockerWrapperClass returns, for an L that is a Locker of the package's
// own (a type whose Unlock releases one lock of its receiver and may do
// more, such as re-checking a condition), the class of the lock its Unlock
// releases: waiting on the Cond releases that lock. A lock the wrapper
// reaches through a pointer field is the one the package stores there
// (c.mu = &f.Mutex). It returns "" when v is not such a wrapper.
func (a *analyzer) lockerWrapperClass(funcs []*ssa.Function, flows map[*ssa.Function]*lockstate.Result, v ssa.Value) string {
	t := lockstate.Unbox(v).Type()
	if n := namedPointee(t); n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == "sync" {
		return ""
	}
	sel := ExportedMethod(a.pkg.Prog.MethodSets.MethodSet(t), "Unlock")
	if sel == nil {
		return ""
	}
	unlock := a.pkg.Prog.MethodValue(sel)
	if unlock == nil || unlock.Pkg != a.pkg || flows[unlock] == nil {
		return ""
	}
	class := ""
	for _, e := range flows[unlock].Exit {
		if !e.Release || e.Returned || len(e.When) > 0 || e.Lock.Root != lockstate.RootParam || e.Lock.RootIndex != 0 || e.Lock.Class == "" {
			continue
		}
		if class != "" && class != e.Lock.Class {
			return "" // it releases two locks
		}
		class = e.Lock.Class
	}
	if class == "" {
		return ""
	}
	if stored := a.storedLockClass(funcs, flows, class); stored != "" {
		return stored
	}
	return class
}

// storedLockClass returns, for a field class of pointer-to-lock type, the
// one lock class the package stores into it, or "".
func (a *analyzer) storedLockClass(funcs []*ssa.Function, flows map[*ssa.Function]*lockstate.Result, field string) string {
	class, open := "", false
	forEachStore(funcs, flows, func(flow *lockstate.Result, st *ssa.Store) {
		if open || flow.IDOf(st.Addr).Class != field {
			return
		}
		if _, ptr := st.Val.Type().Underlying().(*types.Pointer); !ptr {
			open = true // the lock is the field itself
			return
		}
		c := a.lockClassOf(flow.Fn, st.Val, 0)
		if c == "" || class != "" && c != class {
			open = true
			return
		}
		class = c
	})
	if open {
		return ""
	}
	return class
}

// isCondL reports whether fa selects the Locker a Cond is made on: the L
// of a sync.Cond, or the Locker field of a Cond of the module's own
// (lockstate.CondLikeLocker).
func isCondL(fa *ssa.FieldAddr) bool {
	named := namedPointee(fa.X.Type())
	if named == nil {
		return false
	}
	st, _ := named.Underlying().(*types.Struct)
	if st == nil || fa.Field >= st.NumFields() {
		return false
	}
	l, ok := condLockerField(named)
	return ok && st.Field(fa.Field).Name() == l
}

// condLockerField returns the name of the Locker field of the Cond type
// named: L for sync.Cond, the one sync.Locker field of a Cond of the
// module's own (lockstate.CondLikeLocker).
func condLockerField(named *types.Named) (string, bool) {
	if isNamed(named, "sync", "Cond") {
		return "L", true
	}
	return lockstate.CondLikeLocker(named)
}

// condLockerClass returns the class of the Locker field of the Cond type t
// points to, as a lock taken through it is named (c.cond.L.Lock():
// "(*pkg.Cond).L"), or "".
func condLockerClass(t types.Type) string {
	named := namedPointee(t)
	if named == nil || named.Obj().Pkg() == nil {
		return ""
	}
	field, ok := condLockerField(named)
	if !ok {
		return ""
	}
	return "(*" + named.Obj().Pkg().Path() + "." + named.Obj().Name() + ")." + field
}

func isNewCond(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Name() == "NewCond"
}

// condArgL returns, for a CondLock placeholder of a callee's parameter
// (param:i), the class of the Locker field of the Cond its caller passes
// there, as a lock taken through it is named (q.notFull.L.Lock(): the
// class of the Cond type's L): "" otherwise.
func condArgL(cl string, args []ssa.Value) string {
	i, ok := condParamIndex(cl)
	if !ok || i >= len(args) || args[i] == nil {
		return ""
	}
	return condLockerClass(args[i].Type())
}

// condLikeOwnL returns, for a call of a constructor of a Cond of the
// module's own, the class of the new Cond's Locker field, as a lock taken
// through it (c.cond.L.Lock()) is named: "" for other calls.
func condLikeOwnL(call *ssa.Call) string {
	fn := call.Call.StaticCallee()
	if fn == nil || isNewCond(call) {
		return ""
	}
	if _, ok := lockstate.CondLikeConstructor(fn.Signature); !ok {
		return ""
	}
	return condLockerClass(fn.Signature.Results().At(0).Type())
}

// condMadeOn returns the Locker a call makes a new Cond on: the argument
// of sync.NewCond, or the one sync.Locker argument of a constructor of a
// Cond of the module's own (lockstate.CondLikeConstructor).
func condMadeOn(call *ssa.Call) (ssa.Value, bool) {
	if isNewCond(call) && len(call.Call.Args) == 1 {
		return call.Call.Args[0], true
	}
	fn := call.Call.StaticCallee()
	if fn == nil || call.Call.IsInvoke() {
		return nil, false
	}
	i, ok := lockstate.CondLikeConstructor(fn.Signature)
	if !ok || i >= len(call.Call.Args) {
		return nil, false
	}
	return call.Call.Args[i], true
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func namedPointee(t types.Type) *types.Named {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// A condSource is the lock value a Cond class is made on: the value
// itself, or for the address of a field (&x.mu) the struct value and the
// field, so that two Conds made on &x.mu in one function meet.
type condSource struct {
	v     ssa.Value
	field int
}

// noteCondSource records that Conds of class cond are made on the lock v;
// a class made on two values has no one source.
func (a *analyzer) noteCondSource(cond string, v ssa.Value) {
	if a.condSrc == nil {
		a.condSrc = map[string]condSource{}
	}
	src := condSource{lockstate.Unbox(v), -1}
	if fa, ok := src.v.(*ssa.FieldAddr); ok {
		src = condSource{fa.X, fa.Field}
	}
	if prev, ok := a.condSrc[cond]; ok && prev != src {
		src = condSource{}
	}
	a.condSrc[cond] = src
}

// ThroughCondL reports whether the held lock (heldClass, heldKey) was taken
// through the L of a Cond of the same object as the waited Cond (cond,
// condKey) and made on the very same lock value (n.c1.L.Lock() before
// n.c2.Wait(), with c1 and c2 made by sync.NewCond(m) on one m): waiting
// on either Cond releases it. Lock classes alone do not tell: two new
// mutexes of one function share a class.
func (r *Result) ThroughCondL(heldClass, heldKey, cond, condKey string) bool {
	hc, ok := strings.CutSuffix(heldClass, ".L")
	hk, ok2 := strings.CutSuffix(heldKey, ".L")
	if !ok || !ok2 || ownerKey(hk) == "" || ownerKey(hk) != ownerKey(condKey) {
		return false
	}
	s1, ok1 := r.a.condSrc[hc]
	s2, ok2 := r.a.condSrc[cond]
	return ok1 && ok2 && s1.v != nil && s1 == s2
}

// ownerKey returns the key of the object whose field key names, or "".
func ownerKey(key string) string {
	if i := strings.LastIndexByte(key, '.'); i > 0 {
		return key[:i]
	}
	return ""
}

// condLock returns the class of the lock tied to the Cond whose address is
// recv, or "" when it is not known.
func (a *analyzer) condLock(flow *lockstate.Result, recv ssa.Value) string {
	class := flow.IDOf(recv).Class
	if class == "" {
		return ""
	}
	return a.conds[class]
}

// condParamPrefix marks a Reason's CondLock that names no lock class but
// the parameter the waited Cond was handed in (a helper waiting on the
// cond *sync.Cond its caller passes): the caller's argument tells the
// lock (ResolveCondLock).
const condParamPrefix = "param:"

// condParamIndex returns the parameter a CondLock placeholder (param:i)
// names.
func condParamIndex(cl string) (int, bool) {
	rest, ok := strings.CutPrefix(cl, condParamPrefix)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	return i, err == nil && i >= 0
}

// condOfParam returns the CondLock placeholder for a Cond that is fn's
// parameter, or "".
func condOfParam(fn *ssa.Function, cond ssa.Value) string {
	// The parameter itself, or the cell SSA keeps it in when a closure
	// captures it (the goroutine that wakes the waiter on a timeout).
	if i, path, ok := paramValue(fn, stripConv(cond)); ok && i >= 0 && path == "" {
		return condParamPrefix + strconv.Itoa(i)
	}
	return ""
}

// condLikeReleased returns the CondLock placeholder for the released lock
// id when it is the Locker of a Cond of the module's own that is fn's
// parameter (c.L in lock.(*Cond).Wait, released around its select): the
// caller's Cond argument tells which of its locks that is, as for a helper
// waiting on the *sync.Cond its caller passes. It returns "" otherwise.
func condLikeReleased(fn *ssa.Function, id lockstate.ID) string {
	if id.Root != lockstate.RootParam || id.RootIndex >= len(fn.Params) {
		return ""
	}
	l, ok := lockstate.CondLikeLocker(fn.Params[id.RootIndex].Type())
	if !ok || id.Path != "."+l {
		return ""
	}
	return condParamPrefix + strconv.Itoa(id.RootIndex)
}

// condLockAt resolves cl, the CondLock of a callee's reason, at a call in
// fn with the given arguments: a placeholder for the callee's parameter
// becomes the lock of the Cond passed there (or fn's own placeholder, when
// fn passes its parameter on); a class stays. An argument whose Cond's
// lock is not known leaves none, and the wait blocks every held lock.
func (a *analyzer) condLockAt(fn *ssa.Function, flow *lockstate.Result, cl string, args []ssa.Value) string {
	if !strings.HasPrefix(cl, condParamPrefix) {
		return cl
	}
	i, ok := condParamIndex(cl)
	if !ok || i >= len(args) || args[i] == nil || flow == nil {
		return ""
	}
	if l := a.condLock(flow, args[i]); l != "" {
		return l
	}
	return condOfParam(fn, args[i])
}

// ResolveCondLock returns r with its CondLock resolved at a call in f with
// the given arguments (see condLockAt), or r itself when there is nothing
// to resolve.
func (r *Result) ResolveCondLock(reason *Reason, f *Func, args []ssa.Value) *Reason {
	if reason == nil || !strings.HasPrefix(reason.CondLock, condParamPrefix) || f == nil {
		return reason
	}
	out := *reason
	out.CondLock = r.a.condLockAt(f.Fn, f.Flow, reason.CondLock, args)
	return &out
}
