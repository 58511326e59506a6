package summary

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// This file finds the objects whose last reference the package has just
// dropped:
//
//	func (c *TableCache) Unref() {
//		if c.refs.Add(-1) == 0 {
//			for i := range c.shards {
//				c.shards[i].Close() // waits for the shard's release loop under the shard's lock
//			}
//		}
//	}
//
// Past the decrement of its reference count to zero, no user holds the
// object: none can call it, so none can wait for its locks, nor for the
// locks of the objects it alone points to (fields only ever set to objects
// just made: its shards). Only the goroutines started on it, its own
// workers, may still run; holding its lock while waiting for them
// deadlocks only if they take that lock.

// A lastRef is a test, in a function, that the reference count of obj has
// dropped to zero; zero is the block it leads to when it has.
type lastRef struct {
	obj  refPath
	zero *ssa.BasicBlock
}

// A refPath is a value and the pointer fields and elements loaded from it
// in turn (c.shards[i] is c, then shards, then an element).
type refPath struct {
	root  ssa.Value
	steps []refStep
}

// A refStep is a load of a field, or of an element of a slice or array.
type refStep struct {
	field *types.Var
	elem  bool
}

// pathOf returns the refPath of v.
func pathOf(v ssa.Value) refPath {
	var steps []refStep
	for range 8 {
		u, ok := v.(*ssa.UnOp)
		if !ok || u.Op != token.MUL {
			break
		}
		addr := u.X
		if ia, ok := addr.(*ssa.IndexAddr); ok {
			steps = append(steps, refStep{elem: true})
			addr = ia.X
			if load, ok := addr.(*ssa.UnOp); ok && load.Op == token.MUL {
				addr = load.X // a slice held in a field
			}
		}
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			v = addr
			break
		}
		steps = append(steps, refStep{field: structField(fa.X.Type(), fa.Field)})
		v = fa.X
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return refPath{root: v, steps: steps}
}

// lastRefs returns fn's tests that a reference count has dropped to zero.
func (a *analyzer) lastRefs(fn *ssa.Function) []lastRef {
	if out, ok := a.lastRefCache[fn]; ok {
		return out
	}
	var out []lastRef
	for _, b := range fn.Blocks {
		ifi, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		cond, ok := ifi.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		x, op, n, ok := constCompare(cond)
		if !ok || n != 0 {
			continue
		}
		var zero *ssa.BasicBlock
		switch op {
		case token.EQL, token.LEQ:
			zero = b.Succs[0]
		case token.NEQ, token.GTR:
			zero = b.Succs[1]
		default:
			continue
		}
		counter := decremented(x)
		if counter == nil || len(zero.Preds) != 1 {
			continue
		}
		for {
			fa, ok := counter.(*ssa.FieldAddr)
			if !ok {
				break
			}
			counter = fa.X // the count is a field of the object, maybe in a struct of its own
		}
		if named := namedPointee(counter.Type()); named == nil || a.kept(named) {
			continue // a registry may hand it out again: the count is not all its references
		}
		out = append(out, lastRef{obj: pathOf(counter), zero: zero})
	}
	if a.lastRefCache == nil {
		a.lastRefCache = map[*ssa.Function][]lastRef{}
	}
	a.lastRefCache[fn] = out
	return out
}

// kept reports whether the package keeps pointers to named in containers:
// a field or variable that is a map, slice, array or channel of them, or
// a value stored into one. An object in a cache or a registry can be
// looked up, and its count raised again, after it has dropped to zero;
// one only plain fields point to is gone with its holders.
func (a *analyzer) kept(named *types.Named) bool {
	if v, ok := a.keptTypes[named]; ok {
		return v
	}
	ptr := types.NewPointer(named)
	isPtr := func(t types.Type) bool { return types.Identical(t, ptr) }
	holds := func(t types.Type) bool {
		switch t := t.Underlying().(type) {
		case *types.Map:
			return isPtr(t.Elem()) || isPtr(t.Key())
		case *types.Slice:
			return isPtr(t.Elem())
		case *types.Array:
			return isPtr(t.Elem())
		case *types.Chan:
			return isPtr(t.Elem())
		}
		return false
	}
	kept := false
	scope := a.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Var:
			kept = kept || holds(obj.Type())
		case *types.TypeName:
			if st, ok := obj.Type().Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					kept = kept || holds(f.Type())
				}
			}
		}
	}
	for _, fn := range a.srcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.MapUpdate:
					kept = kept || isPtr(instr.Value.Type()) || isPtr(instr.Key.Type())
				case *ssa.Send:
					kept = kept || isPtr(instr.X.Type())
				case *ssa.Store:
					if _, elem := instr.Addr.(*ssa.IndexAddr); elem {
						kept = kept || isPtr(instr.Val.Type())
					}
				}
			}
		}
	}
	if a.keptTypes == nil {
		a.keptTypes = map[*types.Named]bool{}
	}
	a.keptTypes[named] = kept
	return kept
}

// decremented returns the address of the counter whose decremented value
// x is (refs.Add(-1), atomic.AddInt32(&refs, -1), or refs read back after
// refs--), or nil.
func decremented(x ssa.Value) ssa.Value {
	switch x := x.(type) {
	case *ssa.Call:
		c := x.Common()
		callee := StaticCallee(c)
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync/atomic" || len(c.Args) != 2 || !isIntConst(c.Args[1], -1) {
			return nil
		}
		if callee.Name() == "Add" || strings.HasPrefix(callee.Name(), "AddInt") {
			return c.Args[0]
		}
	case *ssa.BinOp:
		// n := o.refs - 1; o.refs = n; if n == 0
		if x.Op != token.SUB || !isIntConst(x.Y, 1) {
			return nil
		}
		for _, ref := range *x.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Val == ssa.Value(x) {
				if _, ok := st.Addr.(*ssa.FieldAddr); ok {
					return st.Addr
				}
			}
		}
	case *ssa.UnOp:
		// o.refs--; if o.refs == 0
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL {
			return nil
		}
		for _, instr := range x.Block().Instrs {
			if instr == ssa.Instruction(x) {
				break
			}
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			prev, ok := st.Addr.(*ssa.FieldAddr)
			if ok && prev.X == fa.X && prev.Field == fa.Field {
				if sub, ok := st.Val.(*ssa.BinOp); ok && sub.Op == token.SUB && isIntConst(sub.Y, 1) {
					return fa
				}
			}
		}
	}
	return nil
}

// releasedAt reports whether v, a value of fn, is an object released at
// instruction at: one whose last reference a test that leads only to at
// has seen dropped, or that such an object alone points to, or a
// parameter every caller passes such an object.
func (a *analyzer) releasedAt(fn *ssa.Function, v ssa.Value, at ssa.Instruction) bool {
	p := pathOf(v)
	for _, lr := range a.lastRefs(fn) {
		if lr.obj.root == p.root && lr.zero.Dominates(at.Block()) && a.ownedBelow(lr.obj.steps, p.steps) {
			return true
		}
	}
	if par, ok := p.root.(*ssa.Parameter); ok {
		flags, j := a.releasedParams[fn], indexOf(fn.Params, par)
		return j >= 0 && j < len(flags) && flags[j] && a.ownedBelow(nil, p.steps)
	}
	return false
}

// ownedBelow reports whether the path p extends the path prefix only
// through fields that own what they point to.
func (a *analyzer) ownedBelow(prefix, p []refStep) bool {
	if len(p) < len(prefix) {
		return false
	}
	for i, s := range prefix {
		if p[i] != s {
			return false
		}
	}
	rest := p[len(prefix):]
	for i := 0; i < len(rest); i++ {
		s := rest[i]
		if s.field == nil {
			return false // an element of what is not a field
		}
		if i+1 < len(rest) && rest[i+1].elem {
			if !a.ownsElems(s.field) {
				return false
			}
			i++
			continue
		}
		if !a.ownsPointee(s.field) {
			return false
		}
	}
	return true
}

// ownsPointee reports whether the unexported pointer field f of the
// package is only ever set to objects just made that go nowhere else.
func (a *analyzer) ownsPointee(f *types.Var) bool {
	return f != nil && !f.Exported() && f.Pkg() == a.pkg.Pkg && a.freshOnly(f)
}

// ownsElems reports whether the unexported slice or array field f of the
// package only ever holds objects just made that go nowhere else: the
// field is set to new slices (or nil), and each element stored into it is
// such an object.
func (a *analyzer) ownsElems(f *types.Var) bool {
	if f == nil || f.Exported() || f.Pkg() != a.pkg.Pkg {
		return false
	}
	var elem types.Type
	switch t := f.Type().Underlying().(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Array:
		elem = t.Elem()
	}
	if elem == nil {
		return false
	}
	if _, ok := elem.Underlying().(*types.Pointer); !ok {
		return false
	}
	elemStore := func(ia *ssa.IndexAddr) bool {
		for _, ref := range *ia.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(ia) {
				if !a.freshObject(st.Val) || !storedOnlyAt(st.Val, st) {
					return false
				}
			}
		}
		return true
	}
	elems := 0
	for _, fa := range a.indexed().fieldAddrs[f] {
		for _, ref := range *fa.Referrers() {
			switch ref := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.Store:
				if ref.Addr != ssa.Value(fa) {
					return false
				}
				switch ref.Val.(type) {
				case *ssa.MakeSlice, *ssa.Const:
				default:
					return false
				}
			case *ssa.IndexAddr: // an element of an array field
				elems++
				if !elemStore(ref) {
					return false
				}
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
				for _, use := range *ref.Referrers() {
					if ia, ok := use.(*ssa.IndexAddr); ok {
						elems++
						if !elemStore(ia) {
							return false
						}
					}
				}
			default:
				return false
			}
		}
	}
	return elems > 0
}

// computeReleased flags the pointer parameters released at entry: the
// function can only be called from the package, and every call passes an
// object released there. A greatest fixpoint, like unsharedAtEntry, run
// when a lock first asks (releasedLock).
func (a *analyzer) computeReleased() {
	a.paramFixpoint(a.srcFuncs,
		func(m map[*ssa.Function][]bool) { a.releasedParams = m }, // read by releasedAt
		func(cs callSite, i int) bool {
			_, isGo := cs.instr.(*ssa.Go)
			return !isGo && i < len(cs.call.Args) && a.releasedAt(cs.fn, valueAt(cs.call.Args[i], cs.instr), cs.instr)
		})
}

// releasedLock reports whether the lock of class at path, a field (or a
// field of a struct field) of obj, an object of fn released at at, is one
// no other goroutine can contend for. In strict mode the object's own
// workers count: none of them may take a lock of the class.
func (a *analyzer) releasedLock(fn *ssa.Function, obj ssa.Value, class, path string, at ssa.Instruction, mode escapeMode) bool {
	named := namedPointee(obj.Type())
	if named == nil || !inObject(obj.Type(), path) {
		return false
	}
	if a.releasedParams == nil {
		a.computeReleased()
	}
	if !a.releasedAt(fn, obj, at) {
		return false
	}
	return mode != strict || !a.workersTake(named, class)
}

// workersTake reports whether a goroutine (or timer's func) the package
// starts on an object of type named may take a lock of class, or the
// package starts one it cannot follow.
func (a *analyzer) workersTake(named *types.Named, class string) bool {
	key := workersKey{named, class}
	if v, ok := a.workerTakes[key]; ok {
		return v
	}
	if a.workerTakes == nil {
		a.workerTakes = map[workersKey]bool{}
	}
	ix := a.joins()
	takes := ix.openGo
	ptr := types.NewPointer(named)
	for _, st := range ix.starts {
		if takes {
			break
		}
		if slices.ContainsFunc(st.vals, func(v ssa.Value) bool { return types.Identical(v.Type(), ptr) }) {
			takes = st.body == nil || a.bodyTakes(st.body, class)
		}
	}
	a.workerTakes[key] = takes
	return takes
}

// workersKey keys workersTake's answers.
type workersKey struct {
	named *types.Named
	class string
}
