package summary

import (
	"go/token"
	"go/types"

	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"golang.org/x/tools/go/ssa"
)

// A valueSite is a value stored (or passed) somewhere, in the function that
// does so.
type valueSite struct {
	fn  *ssa.Function
	val ssa.Value
}

// A callSite is a direct call (or go or defer) of a package function.
type callSite struct {
	fn    *ssa.Function
	call  *ssa.CallCommon
	instr ssa.Instruction
}

// pkgIndex records, for the whole package, where values are stored and
// functions called, for the resolution of func values (origins.go): every
// store into a struct field and a package-level variable, every direct call
// of a package function, and the functions that are used as values (and so
// can be called from anywhere).
type pkgIndex struct {
	fieldStores  map[*types.Var][]valueSite
	fieldAddrs   map[*types.Var][]*ssa.FieldAddr
	globalStores map[*ssa.Global][]valueSite
	calls        map[*ssa.Function][]callSite
	escapes      map[*ssa.Function]bool
	// invoked holds the unexported methods of the package called through
	// an interface: their callers are not all direct calls.
	invoked map[*types.Func]bool
	// boxed holds, for the named types whose values (or pointers) the
	// package converts to an interface, the names of the methods that the
	// interfaces declare: other packages can call those wherever the
	// interface value goes.
	boxed map[*types.Named]map[string]bool
}

// indexed returns the package's index, built on first use.
func (a *analyzer) indexed() *pkgIndex {
	if a.index == nil {
		a.index = buildIndex(a.pkg, a.srcFuncs)
	}
	return a.index
}

// buildIndex scans funcs and the package initialiser (which holds the
// package-level variables' initial values).
func buildIndex(pkg *ssa.Package, funcs []*ssa.Function) *pkgIndex {
	ix := &pkgIndex{
		fieldStores:  map[*types.Var][]valueSite{},
		fieldAddrs:   map[*types.Var][]*ssa.FieldAddr{},
		globalStores: map[*ssa.Global][]valueSite{},
		calls:        map[*ssa.Function][]callSite{},
		escapes:      map[*ssa.Function]bool{},
		invoked:      map[*types.Func]bool{},
		boxed:        map[*types.Named]map[string]bool{},
	}
	all := funcs
	if init := pkg.Func("init"); init != nil {
		var add func(f *ssa.Function)
		add = func(f *ssa.Function) {
			all = append(all, f)
			for _, anon := range f.AnonFuncs {
				add(anon)
			}
		}
		add(init)
	}
	for _, fn := range all {
		if srcname.InTest(fn.Prog.Fset, fn.Pos()) {
			// Tests set hooks and call helpers in ways the program
			// never does: what production code runs is decided by
			// production code.
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ix.instr(fn, instr)
			}
		}
	}
	return ix
}

func (ix *pkgIndex) instr(fn *ssa.Function, instr ssa.Instruction) {
	switch instr := instr.(type) {
	case *ssa.MakeInterface:
		t := instr.X.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			n = n.Origin()
			if ix.boxed[n] == nil {
				ix.boxed[n] = map[string]bool{}
			}
			if iface, ok := instr.Type().Underlying().(*types.Interface); ok {
				for i := range iface.NumMethods() {
					ix.boxed[n][iface.Method(i).Name()] = true
				}
			}
		}
	case *ssa.FieldAddr:
		if f := FieldVar(instr); f != nil {
			ix.fieldAddrs[f.Origin()] = append(ix.fieldAddrs[f.Origin()], instr)
		}
	case *ssa.Store:
		switch addr := instr.Addr.(type) {
		case *ssa.FieldAddr:
			if f := FieldVar(addr); f != nil {
				ix.fieldStores[f.Origin()] = append(ix.fieldStores[f.Origin()], valueSite{fn, instr.Val})
			}
		case *ssa.Global:
			ix.globalStores[addr] = append(ix.globalStores[addr], valueSite{fn, instr.Val})
		}
	case ssa.CallInstruction:
		c := instr.Common()
		if c.IsInvoke() {
			ix.invoked[c.Method] = true
		} else if g := ClosureFn(c.Value); g != nil {
			g = declaredFn(g)
			ix.calls[g] = append(ix.calls[g], callSite{fn, c, instr})
		}
	}
	// Functions used as values, other than as the callee of a call.
	for _, v := range valueOperands(instr) {
		switch v := v.(type) {
		case *ssa.Function:
			ix.escapes[declaredFn(v)] = true
		case *ssa.MakeClosure:
			if _, isCall := instr.(ssa.CallInstruction); isCall {
				if g, ok := v.Fn.(*ssa.Function); ok {
					ix.escapes[g] = true
				}
			}
		}
	}
	if mc, ok := instr.(*ssa.MakeClosure); ok {
		// A method value x.M: M can be called from wherever it goes.
		if g, ok := mc.Fn.(*ssa.Function); ok {
			if m, _, ok := BoundMethod(g); ok && m != nil {
				ix.escapes[declaredFn(m)] = true
			}
		}
	}
	if mc, ok := instr.(*ssa.MakeClosure); ok {
		// A closure stored, returned or passed on escapes: a closure
		// only ever called in place does not.
		for _, ref := range *mc.Referrers() {
			if call, ok := ref.(ssa.CallInstruction); ok && call.Common().Value == ssa.Value(mc) {
				continue
			}
			if g, ok := mc.Fn.(*ssa.Function); ok {
				ix.escapes[g] = true
			}
		}
	}
}

// declaredFn maps an instantiation of a generic function to its origin.
func declaredFn(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil {
		return o
	}
	return fn
}

// valueOperands returns the operands of instr through which a function can
// be passed, stored or returned as a value (not called). It reads the
// instruction's fields directly: Operands allocates, and this runs for
// every instruction of the package.
func valueOperands(instr ssa.Instruction) []ssa.Value {
	switch instr := instr.(type) {
	case ssa.CallInstruction:
		return instr.Common().Args
	case *ssa.Store:
		return []ssa.Value{instr.Val}
	case *ssa.MakeInterface:
		return []ssa.Value{instr.X}
	case *ssa.ChangeType:
		return []ssa.Value{instr.X}
	case *ssa.Return:
		return instr.Results
	case *ssa.Phi:
		return instr.Edges
	case *ssa.Send:
		return []ssa.Value{instr.X}
	case *ssa.MapUpdate:
		return []ssa.Value{instr.Value}
	case *ssa.MakeClosure:
		return instr.Bindings
	}
	return nil
}

// directCalls returns the calls of fn, a function of the package, when
// they are all its calls: other packages cannot call it, and the package
// neither uses it as a value nor calls it through an interface. It
// returns nil otherwise, or when nothing calls it.
func (a *analyzer) directCalls(fn *ssa.Function) []callSite {
	if a.callableOutside(fn) || a.indexed().escapes[fn] {
		return nil
	}
	if obj := FuncObject(fn); obj != nil && a.indexed().invoked[obj] {
		return nil
	}
	return a.indexed().calls[fn]
}

// eachFieldStore calls store for each store into field f in the package's
// code (not its tests), with the field's address. It reports false, and
// stops, when the address is used for anything but loads and stores into
// it (handed to a call, kept: the field can change out of sight) or when
// store returns false.
func (a *analyzer) eachFieldStore(f *types.Var, store func(fa *ssa.FieldAddr, st *ssa.Store) bool) bool {
	for _, fa := range a.indexed().fieldAddrs[f] {
		for _, ref := range *fa.Referrers() {
			switch ref := ref.(type) {
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			case *ssa.Store:
				if ref.Addr != ssa.Value(fa) || !store(fa, ref) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// Outermost returns the function declared in the source that fn is, or
// that encloses fn, a func literal.
func Outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
