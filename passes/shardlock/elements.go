package shardlock

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// An element is a value picked out of a container: an array or slice
// element (its address, or the pointer it holds), a map element looked
// up by key, or the value of a range over a map.
type element struct {
	cont   ssa.Value // the container operand: an array's address, a slice, a map
	index  ssa.Value // the index or key; nil for a map range
	isMap  bool
	ranged bool // the value of a range over a map
	block  *ssa.BasicBlock
}

// elementOf resolves v, an element or a pointer held in one, to how it is
// picked out of its container. A phi whose other edges are fresh values is
// the element too: the lookup-or-insert of a lock table
// (l, ok := m[k]; if !ok { l = new(sync.Mutex); m[k] = l }).
func elementOf(v ssa.Value, depth int) (element, bool) {
	if depth > 4 {
		return element{}, false
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if _, ok := u.X.(*ssa.IndexAddr); ok {
			v = u.X // a pointer element: shards []*shard
		}
	}
	switch x := v.(type) {
	case *ssa.IndexAddr:
		return element{cont: x.X, index: x.Index, block: x.Block()}, true
	case *ssa.Lookup:
		if _, isMap := x.X.Type().Underlying().(*types.Map); isMap && !x.CommaOk {
			return element{cont: x.X, index: x.Index, isMap: true, block: x.Block()}, true
		}
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.Lookup:
			if _, isMap := t.X.Type().Underlying().(*types.Map); isMap && x.Index == 0 {
				return element{cont: t.X, index: t.Index, isMap: true, block: t.Block()}, true
			}
		case *ssa.Next:
			if r, ok := t.Iter.(*ssa.Range); ok && !t.IsString && x.Index == 2 {
				return element{cont: r.X, isMap: true, ranged: true, block: t.Block()}, true
			}
		}
	case *ssa.Phi:
		var found *element
		for _, e := range x.Edges {
			if _, fresh := e.(*ssa.Alloc); fresh {
				continue
			}
			el, ok := elementOf(e, depth+1)
			if !ok || found != nil && (found.cont != el.cont || found.index != el.index || found.ranged != el.ranged) {
				return element{}, false
			}
			found = &el
		}
		if found != nil {
			return *found, true
		}
	}
	return element{}, false
}

// lockElement returns the element whose own lock v (the address of a lock)
// is: the element's lock field (sh.mu, an embedded Mutex, sh.mu.Mutex),
// or the element itself when the container holds locks (locks
// map[string]*sync.Mutex). A lock reached from the element through a
// further field (a back-pointer out of it) is not the element's.
func lockElement(v ssa.Value) (element, bool) {
	if fa, ok := v.(*ssa.FieldAddr); ok {
		x := fa.X
		if inner, ok := x.(*ssa.FieldAddr); ok && lockstate.IsLockType(inner.Type()) {
			x = inner.X // a lock in a struct field: mu.Mutex
		}
		return elementOf(x, 0)
	}
	if !lockstate.IsLockType(v.Type()) {
		return element{}, false
	}
	return elementOf(v, 0)
}

// A selector is a function returning the element of a container reachable
// from its first parameter that its other arguments pick (shardFor, a lock
// table's lockFor).
type selector struct {
	// Container is the class of the container field of the first
	// parameter, "" when the parameter is the container itself (a method
	// of a named slice type).
	Container string
	Map       bool
}

// selectorFact exports a selector of the package for other packages.
// A slice container named by Container is a fixed partition.
type selectorFact struct {
	Container string
	Map       bool
}

func (*selectorFact) AFact() {}

func (f *selectorFact) String() string {
	c := f.Container
	if c == "" {
		c = "its receiver"
	}
	return "shardlock(selects an element of " + c + ")"
}

// freshFact marks a function that returns a newly made slice (a
// constructor of a shard set): a field set only to its results is a fixed
// partition.
type freshFact struct{ Fresh bool }

func (*freshFact) AFact() {}

func (*freshFact) String() string { return "shardlock(returns a new slice)" }

// fixedFact marks a slice field that is a fixed partition, for the
// packages that lock its elements through the package's methods.
type fixedFact struct{ Fixed bool }

func (*fixedFact) AFact() {}

func (*fixedFact) String() string { return "shardlock(fixed partition)" }

// selectorOf reports whether fn is a selector: every return is an element
// of one container, picked by a key (not a constant, not in a loop over
// the elements), that is a field of fn's first parameter (a fixed one, for
// an array or a slice) or the parameter itself.
func (c *checker) selectorOf(fn *ssa.Function) (selector, bool) {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if len(fn.Blocks) == 0 {
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil || obj.Pkg() == c.pass.Pkg {
			return selector{}, false
		}
		var fact selectorFact
		if !c.pass.ImportObjectFact(obj, &fact) {
			return selector{}, false
		}
		return selector(fact), true
	}
	if s, ok := c.selectors[fn]; ok {
		if s == nil {
			return selector{}, false
		}
		return *s, true
	}
	s, ok := c.selectorBody(fn)
	if !ok {
		c.selectors[fn] = nil
		return selector{}, false
	}
	c.selectors[fn] = &s
	for _, class := range rwMutexFields(fn.Signature.Results().At(0).Type()) {
		c.shardLocks[class] = true
	}
	return s, true
}

func (c *checker) selectorBody(fn *ssa.Function) (selector, bool) {
	if len(fn.Params) == 0 {
		return selector{}, false
	}
	var out *selector
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return selector{}, false
		}
		el, ok := elementOf(ret.Results[0], 0)
		if !ok || el.ranged || lockstate.InLoop(el.block) {
			return selector{}, false
		}
		if _, isConst := el.index.(*ssa.Const); isConst {
			return selector{}, false
		}
		var s selector
		x := el.cont
		if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
			x = u.X
		}
		switch {
		case isParam(fn, el.cont, 0):
			s = selector{Map: el.isMap}
		case isFieldOfParam(fn, x):
			fa := x.(*ssa.FieldAddr)
			if !el.isMap && !c.fixed(summary.FieldVar(fa)) {
				return selector{}, false
			}
			s = selector{Container: lockstate.FieldClass(fa), Map: el.isMap}
			if s.Container == "" {
				return selector{}, false
			}
		default:
			return selector{}, false
		}
		if out != nil && *out != s {
			return selector{}, false
		}
		out = &s
	}
	if out == nil {
		return selector{}, false
	}
	return *out, true
}

func isFieldOfParam(fn *ssa.Function, x ssa.Value) bool {
	fa, ok := x.(*ssa.FieldAddr)
	return ok && isParam(fn, fa.X, 0)
}

// fixed reports whether the container field f is a fixed partition: an
// array, or a slice the package only ever sets to a new slice, made
// directly or by a constructor (of this package or, through its facts,
// another) that returns one.
func (c *checker) fixed(f *types.Var) bool {
	if f == nil {
		return false
	}
	if c.res.FixedContainer(f) {
		return true
	}
	f = f.Origin()
	if _, ok := f.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	if f.Pkg() != c.pass.Pkg {
		var fact fixedFact
		return c.pass.ImportObjectFact(f, &fact)
	}
	for _, v := range c.fieldStores()[f] {
		if !freshSlice(v) && !c.freshCall(v) {
			return false
		}
	}
	return true
}

// freshCall reports whether v is the result of a constructor that
// returns a newly made slice.
func (c *checker) freshCall(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return false
	}
	if callee.Origin() != nil {
		callee = callee.Origin()
	}
	if len(callee.Blocks) == 0 {
		obj, ok := callee.Object().(*types.Func)
		if !ok || obj == nil || obj.Pkg() == c.pass.Pkg {
			return false
		}
		var fact freshFact
		return c.pass.ImportObjectFact(obj, &fact)
	}
	return returnsFresh(callee)
}

// returnsFresh reports whether every return of fn is a newly made slice.
func returnsFresh(fn *ssa.Function) bool {
	n := 0
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 || !freshSlice(ret.Results[0]) {
			return false
		}
		n++
	}
	return n > 0
}

// freshSlice reports whether v is a newly made slice: make([]T, n) or a
// slice literal (as the summary's fixed containers count them).
func freshSlice(v ssa.Value) bool {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return true
	case *ssa.Slice:
		_, lit := v.X.(*ssa.Alloc)
		return lit
	}
	return false
}

// fieldStores indexes the values the package's code stores into struct
// fields, by field (test files aside, as the summary's index does).
func (c *checker) fieldStores() map[*types.Var][]ssa.Value {
	if c.stores != nil {
		return c.stores
	}
	c.stores = map[*types.Var][]ssa.Value{}
	var fns []*ssa.Function
	for _, f := range c.res.Funcs {
		fns = append(fns, f.Fn)
	}
	if init := c.res.Pkg.Func("init"); init != nil {
		var add func(f *ssa.Function)
		add = func(f *ssa.Function) {
			fns = append(fns, f)
			for _, anon := range f.AnonFuncs {
				add(anon)
			}
		}
		add(init)
	}
	for _, fn := range fns {
		if srcname.InTest(c.pass.Fset, fn.Pos()) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
					if f := summary.FieldVar(fa); f != nil {
						c.stores[f.Origin()] = append(c.stores[f.Origin()], st.Val)
					}
				}
			}
		}
	}
	return c.stores
}

// exportFacts exports the package's exported selectors and slice
// constructors, and the fixed slice fields of its exported types, for the
// packages that import it.
func (c *checker) exportFacts() {
	for _, f := range c.res.Funcs {
		fn := f.Fn
		if fn.Parent() != nil {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil || obj.Pkg() != c.pass.Pkg || !obj.Exported() {
			continue // other packages call only exported functions
		}
		if s, ok := c.selectorOf(fn); ok {
			fact := selectorFact(s)
			c.pass.ExportObjectFact(obj, &fact)
		}
		if returnsFresh(fn) {
			c.pass.ExportObjectFact(obj, &freshFact{Fresh: true})
		}
	}
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !tn.Exported() {
			continue // other packages reach fields of exported types
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if sl, ok := f.Type().Underlying().(*types.Slice); ok && hasOwnLock(sl.Elem()) && c.fixed(f) {
				c.pass.ExportObjectFact(f, &fixedFact{Fixed: true})
			}
		}
	}
}

// hasOwnLock reports whether t (or what it points to) is a lock or a
// struct with a lock field of its own.
func hasOwnLock(t types.Type) bool {
	if lockstate.IsLockType(t) {
		return true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if lockstate.IsLockType(st.Field(i).Type()) {
			return true
		}
	}
	return false
}
