package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// This file finds the code that runs only under a test switch: a branch
// taken only when a bool field is true that production code never sets,
// because the field is unexported and only _test.go files (or nobody)
// store true into it (opts.private.testingAlwaysWaitForCleanup), a branch
// taken only when such a field of a type that can be nil is not nil
// (if t.sink != nil { t.sink <- b }, with only tests, or nobody, setting
// sink), or an
// unexported package variable of the package that only _test.go files set
// to true (synchronizeTokenIDVerifierForTest). What such
// a branch does under a lock is what tests asked for, not what the
// program does.

// TestOnly reports whether instr, of function f, runs only when a test
// switch is on.
func (r *Result) TestOnly(f *Func, instr ssa.Instruction) bool {
	if f == nil || instr.Block() == nil {
		return false
	}
	return r.a.testOnly(f.Fn, instr.Block())
}

// testOnly reports whether block b of fn runs only when a test switch is
// on.
func (a *analyzer) testOnly(fn *ssa.Function, b *ssa.BasicBlock) bool {
	for _, c := range a.guardsOf(fn).when(b) {
		if c.Cmp != token.ILLEGAL || c.Path == "" {
			continue
		}
		switch {
		case c.Nil && !c.Value:
			// if t.sink != nil { t.sink <- b }, with sink never set.
			if v := pathField(fn, c, nilable); v != nil && a.neverSet(v) {
				return true
			}
		case !c.Nil && c.Value:
			if v := pathField(fn, c, isBool); v != nil && a.testSwitch(v) {
				return true
			}
		}
	}
	// if synchronizeForTest { ... }, on a package variable.
	for d := b.Idom(); d != nil; d = d.Idom() {
		iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		load, ok := iff.Cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		g, ok := load.X.(*ssa.Global)
		then := d.Succs[0]
		if ok && then != d.Succs[1] && len(then.Preds) == 1 && then.Dominates(b) && a.globalSwitch(g) {
			return true
		}
	}
	return false
}

// globalSwitch reports whether g is a test switch: an unexported bool
// variable of this package that code outside _test.go files only ever
// sets to false, and whose address goes nowhere.
func (a *analyzer) globalSwitch(g *ssa.Global) bool {
	v, ok := g.Object().(*types.Var)
	if !ok || v.Exported() || g.Pkg != a.pkg || !isBool(v.Type()) {
		return false
	}
	vals, ok := a.globalValues(g)
	for _, val := range vals {
		ok = ok && isFalse(val)
	}
	return ok
}

// globalValues returns the values that code outside _test.go files stores
// into g, an unexported variable of the package (the package index's
// stores), when its address goes nowhere else (ok); tests may store
// anything.
func (a *analyzer) globalValues(g *ssa.Global) (vals []ssa.Value, ok bool) {
	if v, isVar := g.Object().(*types.Var); !isVar || v.Exported() || g.Pkg != a.pkg {
		return nil, false
	}
	if a.globalUses().open[g] {
		return nil, false
	}
	for _, s := range a.indexed().globalStores[g] {
		vals = append(vals, s.val)
	}
	return vals, true
}

// globalUse indexes what the package index does not hold of the package
// variables' uses, which SSA keeps no referrers for: their loads outside
// _test.go files, and the variables whose address goes elsewhere than a
// load or a store, in any file.
type globalUse struct {
	loads map[*ssa.Global][]ssa.Instruction
	open  map[*ssa.Global]bool
}

// globalUses returns the package's globalUse, built in one pass on first
// use.
func (a *analyzer) globalUses() *globalUse {
	if a.globals != nil {
		return a.globals
	}
	ix := &globalUse{loads: map[*ssa.Global][]ssa.Instruction{}, open: map[*ssa.Global]bool{}}
	var ops []*ssa.Value
	funcs := a.srcFuncs
	if init := a.pkg.Func("init"); init != nil && !slices.Contains(funcs, init) {
		// The package initializer, which stores the variables'
		// initial values (var x = true).
		funcs = append(slices.Clip(funcs), init)
	}
	for _, fn := range funcs {
		test := srcname.InTest(a.pkg.Prog.Fset, fn.Pos())
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					if g, ok := x.Val.(*ssa.Global); ok {
						ix.open[g] = true
					}
					continue
				case *ssa.UnOp:
					if x.Op == token.MUL {
						if g, ok := x.X.(*ssa.Global); ok && !test {
							ix.loads[g] = append(ix.loads[g], x)
						}
						continue
					}
				case *ssa.DebugRef:
					continue
				}
				for _, op := range instr.Operands(ops[:0]) {
					if g, ok := (*op).(*ssa.Global); ok {
						ix.open[g] = true // its address goes elsewhere
					}
				}
			}
		}
	}
	a.globals = ix
	return ix
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// pathField returns the field that the condition c of fn tests, if its
// type is one kind accepts, or nil.
func pathField(fn *ssa.Function, c lockstate.Cond, kind func(types.Type) bool) *types.Var {
	var t types.Type
	switch {
	case c.Param >= 0 && c.Param < len(fn.Params):
		t = fn.Params[c.Param].Type()
	case c.Param < 0 && -1-c.Param < len(fn.FreeVars):
		t = fn.FreeVars[-1-c.Param].Type()
	default:
		return nil
	}
	var v *types.Var
	for _, name := range strings.Split(strings.TrimPrefix(c.Path, "."), ".") {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		v = nil
		for i := range st.NumFields() {
			if f := st.Field(i); f.Name() == name {
				v = f
				break
			}
		}
		if v == nil {
			return nil
		}
		t = v.Type()
	}
	if !kind(t) {
		return nil
	}
	return v
}

// nilable reports whether a value of type t can be nil: a pointer, a
// channel, a map, a func, an interface or a slice.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Chan, *types.Map, *types.Signature, *types.Interface, *types.Slice:
		return true
	}
	return false
}

// neverSet reports whether v, a field whose type can be nil, is nil in
// production code: every store into it outside _test.go files stores nil
// (none does, as a test transport's optional sink that nothing wires).
func (a *analyzer) neverSet(v *types.Var) bool { return a.onlyStored(&a.unset, v, IsNil) }

// testSwitch reports whether v, a bool field, is never true in production
// code: every store into it outside _test.go files stores false.
func (a *analyzer) testSwitch(v *types.Var) bool { return a.onlyStored(&a.switches, v, isFalse) }

// onlyStored reports whether v is an unexported field of this package
// whose every store outside _test.go files stores a value ok accepts, and
// whose address goes nowhere else. memo keeps the answers by field.
func (a *analyzer) onlyStored(memo *map[*types.Var]bool, v *types.Var, ok func(ssa.Value) bool) bool {
	v = v.Origin()
	if known, found := (*memo)[v]; found {
		return known
	}
	yes := v.Pkg() == a.pkg.Pkg && !v.Exported() &&
		a.eachFieldStore(v, func(_ *ssa.FieldAddr, st *ssa.Store) bool { return ok(st.Val) })
	if *memo == nil {
		*memo = map[*types.Var]bool{}
	}
	(*memo)[v] = yes
	return yes
}

// isFalse reports whether v is the constant false.
func isFalse(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Bool && !constant.BoolVal(k.Value)
}

// isTrue reports whether v is the constant true.
func isTrue(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value)
}

// When returns the conditions on fn's parameters and captured variables
// under which block b of f runs (see lockstate.Cond), as far as its
// branches tell.
func (r *Result) When(f *Func, b *ssa.BasicBlock) []lockstate.Cond {
	return r.a.guardsOf(f.Fn).when(b)
}

// TestSupport says why fn, a function of the package, is there for tests
// although it is not in a _test.go file, or returns "" (see
// srcname.TestSupport): it is judged by its package, its file and its
// name, a method's as Recv.Method.
func TestSupport(fn *ssa.Function) string {
	name := fn.Name()
	if recv := fn.Signature.Recv(); recv != nil {
		if n := namedPointee(recv.Type()); n != nil {
			name = n.Obj().Name() + "." + name
		}
	}
	var pkgPath string
	if fn.Pkg != nil {
		pkgPath = fn.Pkg.Pkg.Path()
	}
	return srcname.TestSupport(pkgPath, fn.Prog.Fset.Position(fn.Pos()).Filename, name)
}
