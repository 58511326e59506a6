package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file treats goroutine groups as the WaitGroups they are: a
// sync.WaitGroup's Go method (Go 1.25) and golang.org/x/sync/errgroup's
// Group.Go and TryGo start their func on a goroutine of its own, which
// marks the group done as it returns, and the group's Wait waits for them:
//
//	var wg sync.WaitGroup
//	for _, l := range x.lists {
//		wg.Go(func() { sort.Ints(l) }) // go func() { defer wg.Done(); ... }()
//	}
//	wg.Wait()
//
//	g, ctx := errgroup.WithContext(ctx)
//	g.Go(func() error { return merge(ctx, a) })
//	err := g.Wait()
//
// So such a Wait is a join with the funcs handed to the group when the
// package's own code is all they run (joins.go), as a Wait for
// goroutines started with go statements is.

// errgroupPath is the import path of golang.org/x/sync/errgroup.
const errgroupPath = "golang.org/x/sync/errgroup"

// isGroup reports whether t is *sync.WaitGroup or *errgroup.Group.
func isGroup(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && (isNamed(p.Elem(), "sync", "WaitGroup") || isNamed(p.Elem(), errgroupPath, "Group"))
}

// groupMethod returns the group and the name of a call of a method of
// *sync.WaitGroup or *errgroup.Group.
func groupMethod(c *ssa.CallCommon) (group ssa.Value, name string, ok bool) {
	callee := c.StaticCallee()
	if c.IsInvoke() || callee == nil || len(c.Args) == 0 {
		return nil, "", false
	}
	// A method of the group, not a function of the program that takes
	// one (func Wait(wg *sync.WaitGroup)).
	obj := FuncObject(callee)
	if obj == nil || obj.Signature().Recv() == nil || !isGroup(obj.Signature().Recv().Type()) {
		return nil, "", false
	}
	return c.Args[0], obj.Name(), true
}

// groupGo returns the group and the func a call of a group's Go or TryGo
// starts on a goroutine of its own.
func groupGo(c *ssa.CallCommon) (group, body ssa.Value, ok bool) {
	g, name, ok := groupMethod(c)
	if !ok || name != "Go" && name != "TryGo" || len(c.Args) != 2 {
		return nil, nil, false
	}
	return g, c.Args[1], true
}

// newErrgroup reports whether v is the group errgroup.WithContext
// returns: a group of its own for each call.
func newErrgroup(v *ssa.Extract) bool {
	call, ok := v.Tuple.(*ssa.Call)
	if !ok || v.Index != 0 {
		return false
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return false
	}
	obj := FuncObject(callee)
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == errgroupPath && obj.Name() == "WithContext"
}

// indexGroupStart records, for a call of a group's Go or TryGo, the
// goroutine it starts (as a go statement's) and the call as the signal
// of the group that the goroutine's return makes (groupDone).
func (a *analyzer) indexGroupStart(ix *joinIndex, fn *ssa.Function, c *ssa.Call) {
	g, body, ok := groupGo(c.Common())
	if !ok {
		return
	}
	ix.starts = append(ix.starts, a.startOf(fn, &ssa.CallCommon{Value: body}))
	t := a.declared(ClosureFn(body))
	if t != nil {
		ix.goBodies[t] = true
	} else {
		ix.openGo = true
	}
	for _, k := range a.chanKeysOf(fn, g) {
		ix.signals[k] = append(ix.signals[k], c)
	}
	if ix.groupDone == nil {
		ix.groupDone = map[ssa.Instruction]*ssa.Function{}
	}
	ix.groupDone[c] = t
}

// maxGroupDepth bounds the helpers followed when a group is handed on.
const maxGroupDepth = 3

// groupConfined reports whether the group v of fn (a local WaitGroup or
// errgroup.Group, the one errgroup.WithContext returned, or a helper's
// parameter) goes nowhere the package cannot see: it is only the receiver
// of the group's own methods (not a method value, g.Go handed on),
// captured by closures that use it so, or handed to functions of the
// package whose every call the package makes and which use their
// parameter so. Then every Go and Done of the group is one the join index
// holds; a group handed to another package, kept in a field or returned
// can gain goroutines out of sight.
func (a *analyzer) groupConfined(fn *ssa.Function, v ssa.Value, depth int) bool {
	if depth < 0 {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			c := ref.Common()
			if _, _, ok := groupMethod(c); ok && c.Args[0] == v && !slices.Contains(c.Args[1:], v) {
				continue
			}
			callee := a.declared(StaticCallee(c))
			if callee == nil || c.IsInvoke() || c.Value == v || a.directCalls(callee) == nil {
				return false
			}
			for i, arg := range c.Args {
				if arg == v && (i >= len(callee.Params) || !a.groupConfined(callee, callee.Params[i], depth-1)) {
					return false
				}
			}
		case *ssa.MakeClosure:
			if !a.capturedConfined(ref, v, depth, a.groupConfined) {
				return false
			}
		case *ssa.BinOp:
			if _, _, ok := nilTest(ref); !ok { // if g.wg == nil: neither kept nor handed on
				return false
			}
		case *ssa.Store:
			if ref.Addr == v && zeroValue(ref.Val) {
				continue // wg := sync.WaitGroup{}
			}
			// wg := new(sync.WaitGroup), captured by a closure: the
			// variable is a cell that holds the group for its life.
			cell, ok := ref.Addr.(*ssa.Alloc)
			if !ok || ref.Val != v || lockstate.SetOnce(cell) != v || !a.cellConfined(fn, cell, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// capturedConfined reports whether the closure mc does with each of its
// captured variables bound to v only what confined allows.
func (a *analyzer) capturedConfined(mc *ssa.MakeClosure, v ssa.Value, depth int, confined func(*ssa.Function, ssa.Value, int) bool) bool {
	g, _ := mc.Fn.(*ssa.Function)
	if g == nil {
		return false
	}
	if _, _, bound := BoundMethod(g); bound {
		return false // g.Go as a value: called who knows where
	}
	for i, b := range mc.Bindings {
		if b == v && (i >= len(g.FreeVars) || !confined(g, g.FreeVars[i], depth-1)) {
			return false
		}
	}
	return true
}

// cellConfined reports whether the variable cell of fn, which holds a
// group for its whole life, is only read, in fn or in the closures that
// capture it, to be used as groupConfined allows.
func (a *analyzer) cellConfined(fn *ssa.Function, cell ssa.Value, depth int) bool {
	if depth < 0 {
		return false
	}
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef, *ssa.Store: // the one store (lockstate.SetOnce)
		case *ssa.UnOp:
			if ref.Op != token.MUL || !a.groupConfined(fn, ref, depth) {
				return false
			}
		case *ssa.MakeClosure:
			if !a.capturedConfined(ref, cell, depth, a.cellConfined) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fieldGroupConfined reports whether the group field of fa (a WaitGroup
// or errgroup.Group held by value) is confined to the package: other
// packages cannot reach it (the field is unexported and not embedded, or
// its struct is unexported), and each of the package's uses of its
// address is confined (groupConfined).
func (a *analyzer) fieldGroupConfined(fa *ssa.FieldAddr) bool {
	f := FieldVar(fa)
	if f == nil || !a.fieldUnreachable(fa, f) {
		return false
	}
	if v, ok := a.groupFields[f]; ok {
		return v
	}
	if a.groupFields == nil {
		a.groupFields = map[*types.Var]bool{}
	}
	a.groupFields[f] = true // a use that reaches the field again
	ok := true
	for _, other := range a.indexed().fieldAddrs[f.Origin()] {
		if !a.groupConfined(other.Parent(), other, maxGroupDepth) {
			ok = false
			break
		}
	}
	a.groupFields[f] = ok
	return ok
}

// zeroValue reports whether v is the zero value of its type: nil, the
// constant zero SSA writes for an empty composite literal
// (sync.WaitGroup{}), false, 0 or "".
func zeroValue(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if c.IsNil() || c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(c.Value)
	case constant.String:
		return constant.StringVal(c.Value) == ""
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(c.Value) == 0
	}
	return false
}

// A groupPointerField keys the groups a field of pointer type holds,
// confined to the package (groupPointerFieldConfined): a wrapper that
// makes its WaitGroup on first use, and hands it to its workers,
//
//	type waitGroup struct{ wg *sync.WaitGroup }
//
//	func (g *waitGroup) Add(n int) {
//		if g.wg == nil {
//			g.wg = new(sync.WaitGroup)
//		}
//		g.wg.Add(n)
//	}
//
//	func (g *waitGroup) Wait() {
//		if g.wg != nil {
//			g.wg.Wait()
//		}
//	}
//
//	go func(wg *sync.WaitGroup) { defer wg.Done(); ... }(g.wg)
//
// Every Done and Go of each of those groups is one the package's code
// makes, so the Waits through the field join the workers given any of
// them (one key for all the field's groups, as for a group kept by value:
// more workers to check, never fewer).
type groupPointerField struct{ f *types.Var }

// groupPointerFieldConfined reports whether the groups the pointer field
// of fa holds are the package's alone: other packages cannot reach the
// field (fieldGroupConfined's test); the package's code only loads it and
// stores into it, and stores only nil or a group made there for the field
// (new(sync.WaitGroup), &sync.WaitGroup{}); and each load is used only as
// groupConfined allows.
func (a *analyzer) groupPointerFieldConfined(fa *ssa.FieldAddr) bool {
	f := FieldVar(fa)
	if f == nil || !a.fieldUnreachable(fa, f) {
		return false
	}
	f = f.Origin()
	if v, ok := a.groupFields[f]; ok {
		return v
	}
	if a.groupFields == nil {
		a.groupFields = map[*types.Var]bool{}
	}
	a.groupFields[f] = true // a use that reaches the field again
	ok := a.eachFieldStore(f, func(_ *ssa.FieldAddr, st *ssa.Store) bool {
		return zeroValue(st.Val) || freshGroup(st)
	})
	for _, other := range a.indexed().fieldAddrs[f] {
		if !ok {
			break
		}
		for _, ref := range *other.Referrers() {
			if load, isLoad := ref.(*ssa.UnOp); isLoad && !a.groupConfined(other.Parent(), load, maxGroupDepth) {
				ok = false
				break
			}
		}
	}
	a.groupFields[f] = ok
	return ok
}

// freshGroup reports whether st stores a group made for it: an allocation
// used for nothing else but being set to its zero value.
func freshGroup(st *ssa.Store) bool {
	alloc, ok := st.Val.(*ssa.Alloc)
	if !ok || !isGroup(alloc.Type()) {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref != st && (ref.Addr != ssa.Value(alloc) || !zeroValue(ref.Val)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fieldUnreachable reports whether other packages cannot reach the field
// f of fa: it is unexported and not embedded, or its struct is unexported
// and the package hands that struct to no other package (hiddenType).
func (a *analyzer) fieldUnreachable(fa *ssa.FieldAddr, f *types.Var) bool {
	if !f.Exported() && !f.Embedded() {
		return true
	}
	owner := namedPointee(fa.X.Type())
	return owner != nil && !owner.Obj().Exported() && a.hiddenType(owner)
}

// hiddenType reports whether the unexported named type t stays in the
// package: no struct type of the package embeds it or has an exported
// field that holds it (its exported fields would be promoted or
// reachable), and no exported variable, function or method holds or
// returns it, directly or in a pointer, slice, array, map or channel.
func (a *analyzer) hiddenType(t *types.Named) bool {
	var holds func(x types.Type) bool
	holds = func(x types.Type) bool {
		switch u := x.(type) {
		case *types.Pointer:
			return holds(u.Elem())
		case *types.Slice:
			return holds(u.Elem())
		case *types.Array:
			return holds(u.Elem())
		case *types.Map:
			return holds(u.Key()) || holds(u.Elem())
		case *types.Chan:
			return holds(u.Elem())
		case *types.Signature:
			return tupleHolds(u.Params(), holds) || tupleHolds(u.Results(), holds)
		case *types.Named:
			// A generic holder: atomic.Pointer[tracker], iter.Seq2[K, *T].
			for i := range u.TypeArgs().Len() {
				if holds(u.TypeArgs().At(i)) {
					return true
				}
			}
			if u.TypeArgs().Len() > 0 {
				if sig, ok := u.Underlying().(*types.Signature); ok && holds(sig) {
					return true
				}
			}
		}
		return types.Identical(x, t)
	}
	scope := a.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.TypeName:
			named, _ := obj.Type().(*types.Named)
			if named == nil {
				continue
			}
			if st, ok := named.Underlying().(*types.Struct); ok {
				for i := range st.NumFields() {
					if f := st.Field(i); (f.Embedded() || f.Exported()) && holds(f.Type()) {
						return false
					}
				}
			}
			for i := range named.NumMethods() {
				if m := named.Method(i); m.Exported() && tupleHolds(m.Signature().Results(), holds) {
					return false
				}
			}
		case *types.Func:
			if obj.Exported() && tupleHolds(obj.Signature().Results(), holds) {
				return false
			}
		case *types.Var:
			if obj.Exported() && holds(obj.Type()) {
				return false
			}
		}
	}
	return true
}

// tupleHolds reports whether one of the types of tuple is one holds
// accepts.
func tupleHolds(tuple *types.Tuple, holds func(types.Type) bool) bool {
	for i := range tuple.Len() {
		if holds(tuple.At(i).Type()) {
			return true
		}
	}
	return false
}
