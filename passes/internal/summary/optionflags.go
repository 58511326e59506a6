package summary

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A wait that only an option turns on is no wait for a caller that does
// not pass the option. gRPC's DialContext waits for the connection only
// under WithBlock:
//
//	func WithBlock() DialOption {
//		return newFuncDialOption(func(o *dialOptions) { o.block = true })
//	}
//
//	func DialContext(ctx context.Context, target string, opts ...DialOption) (*ClientConn, error) {
//		cc, err := NewClient(target, opts...) // applies opts to cc.dopts
//		...
//		if !cc.dopts.block {
//			return cc, nil
//		}
//		for { ... cc.WaitForStateChange(ctx, s) ... }
//	}
//
// An option flag is an unexported field (a bool, or one that can be nil)
// that the package sets to anything but its zero value only inside func
// literals of exported option constructors (WithBlock), which nothing in
// the package calls or passes on: so the field leaves its zero value
// only where the caller applied an option one of those constructors made.
// A branch on an option flag of a configuration the function makes from
// its options parameter (an object it allocates, or that a constructor of
// the package it hands the options to returns) is a condition on that
// parameter (lockstate.Cond.Opt). A caller decides it when it passes a
// list of options it built from the package's other constructors
// (optionargs.go): the flag is zero, and what waits under it never runs.
//
// The other ways a set flag can reach a configuration (a whole
// configuration copied in, options kept for everyone or read back out of
// an interface) are closed off in optionsources.go. Not seen: flags set
// by an option type's method rather than a func literal, and generic
// option types (both keep their waits).

// An optionFlag is an option flag of the package, with what the callers
// need to decide a condition on it.
type optionFlag struct {
	key     string     // the field, as "path.Type.field"
	setters []string   // the constructors that can set it, sorted
	option  types.Type // their result type: the option type
	owner   types.Type // the struct type the field belongs to
	// ownerPkg and ownerName name the owner, for callers that know the
	// flag only by its key (optionargs.go).
	ownerPkg, ownerName string
}

// optionFlagOf returns the option flag f is, or nil.
func (a *analyzer) optionFlagOf(f *types.Var) *optionFlag {
	if fl, ok := a.optionFlags[f]; ok {
		return fl
	}
	fl := a.findOptionFlag(f)
	if a.optionFlags == nil {
		a.optionFlags = map[*types.Var]*optionFlag{}
	}
	a.optionFlags[f] = fl
	return fl
}

func (a *analyzer) findOptionFlag(f *types.Var) *optionFlag {
	if f == nil || !f.IsField() || f.Exported() || f.Pkg() != a.pkg.Pkg || !zeroTestable(f.Type()) {
		return nil
	}
	ix := a.indexed()
	addrs := ix.fieldAddrs[f]
	if len(addrs) == 0 {
		return nil
	}
	// Every use of the field's address is a load or a store into it: no
	// pointer to it goes where a write could hide.
	for _, fa := range addrs {
		for _, ref := range *fa.Referrers() {
			switch ref := ref.(type) {
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return nil
				}
			case *ssa.Store:
				if ref.Addr != ssa.Value(fa) {
					return nil
				}
			case *ssa.DebugRef:
			default:
				return nil
			}
		}
	}
	fl := &optionFlag{owner: addrs[0].X.Type().Underlying().(*types.Pointer).Elem()}
	if n, ok := types.Unalias(fl.owner).(*types.Named); ok && n.Origin().TypeParams().Len() > 0 {
		return nil // a generic configuration: its instances are not told apart
	}
	for _, st := range ix.fieldStores[f] {
		if zeroValue(st.val) {
			continue
		}
		m := Outermost(st.fn)
		if m == st.fn || !a.optionConstructor(m) {
			return nil
		}
		res := m.Signature.Results().At(0).Type()
		if fl.option == nil {
			fl.option = res
		} else if !types.Identical(fl.option, res) {
			return nil
		}
		if !slices.Contains(fl.setters, m.Name()) {
			fl.setters = append(fl.setters, m.Name())
		}
	}
	if fl.option == nil {
		return nil // never set: other rules know zero fields
	}
	if !a.optionSourcesClosed(fl) {
		return nil
	}
	slices.Sort(fl.setters)
	owner := fl.owner.String()
	if n, ok := types.Unalias(fl.owner).(*types.Named); ok {
		owner = n.Obj().Name()
	}
	fl.key = a.pkg.Pkg.Path() + "." + owner + "." + f.Name()
	return fl
}

// optionConstructor reports whether m is an exported function of the
// package (not a method) with one result of a named type, which the
// package itself never calls or passes on: only its users make its
// options.
func (a *analyzer) optionConstructor(m *ssa.Function) bool {
	if m.Pkg != a.pkg || m.Signature.Recv() != nil || m.Object() == nil || !m.Object().Exported() {
		return false
	}
	res := m.Signature.Results()
	if res.Len() != 1 {
		return false
	}
	if _, ok := types.Unalias(res.At(0).Type()).(*types.Named); !ok {
		return false
	}
	ix := a.indexed()
	return len(ix.calls[m]) == 0 && !ix.escapes[m]
}

// zeroTestable reports whether a field of type t has a zero value a branch
// tests: false, or nil.
func zeroTestable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.Bool
	case *types.Pointer, *types.Chan, *types.Map, *types.Signature, *types.Slice, *types.Interface:
		return true
	}
	return false
}

// optionAtoms returns, for the loads of option flags that fn's branches
// can test, the atom each stands for: a test of whether the options fn's
// parameter hands over set the flag (see optionFlag). fn must be a
// function of the package (not a method: a receiver keeps options applied
// earlier), and no parameter but the options may carry the option or
// configuration type.
func (a *analyzer) optionAtoms(fn *ssa.Function) map[ssa.Value]atom {
	if fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Pkg != a.pkg {
		return nil
	}
	var out map[ssa.Value]atom
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ld, ok := instr.(*ssa.UnOp)
			if !ok || ld.Op != token.MUL {
				continue
			}
			fa, ok := ld.X.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			fl := a.optionFlagOf(FieldVar(fa))
			if fl == nil {
				continue
			}
			p := optionsParam(fn, fl)
			if p < 0 || !a.configuredBy(fn, fa.X, fn.Params[p], fl) || !a.cleanPath(fa.X, fl) {
				continue
			}
			if out == nil {
				out = map[ssa.Value]atom{}
			}
			out[ld] = atom{param: p, opt: fl.key, setters: strings.Join(fl.setters, ",")}
		}
	}
	return out
}

// optionsParam returns the index of fn's one parameter of the option type
// (or a slice of it), or -1; -1 too when another parameter carries the
// option or the configuration type.
func optionsParam(fn *ssa.Function, fl *optionFlag) int {
	idx := -1
	for i, p := range fn.Params {
		t := p.Type()
		if s, ok := t.Underlying().(*types.Slice); ok && types.Identical(s.Elem(), fl.option) || types.Identical(t, fl.option) {
			if idx >= 0 {
				return -1
			}
			idx = i
			continue
		}
		if carries(t, fl, map[types.Type]bool{}) {
			return -1
		}
	}
	return idx
}

// carries reports whether a value of type t can hold a value of the option
// type or of the configuration type.
func carries(t types.Type, fl *optionFlag, seen map[types.Type]bool) bool {
	if types.Identical(t, fl.option) || types.AssignableTo(t, fl.option) || fl.owner != nil && types.Identical(t, fl.owner) {
		// An option, or a value usable as one without a type assertion
		// (optionSourcesClosed rules those out): a func of the option
		// type's underlying type, an interface whose method set
		// includes the option's.
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return carries(u.Elem(), fl, seen)
	case *types.Slice:
		return carries(u.Elem(), fl, seen)
	case *types.Array:
		return carries(u.Elem(), fl, seen)
	case *types.Map:
		return carries(u.Key(), fl, seen) || carries(u.Elem(), fl, seen)
	case *types.Chan:
		return carries(u.Elem(), fl, seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if carries(u.Field(i).Type(), fl, seen) {
				return true
			}
		}
	case *types.Interface:
		// One whose methods hand options back (a resolver's
		// OptionsFor).
		for i := range u.NumMethods() {
			if carries(u.Method(i).Type(), fl, seen) {
				return true
			}
		}
	case *types.Signature:
		// A func hands back what its results carry; what it is
		// handed (an interceptor's request) it cannot turn into an
		// option of the package, unless it is handed the configuration
		// itself (a configure func(*Config), a profile's
		// configure(*options)): then it can apply options to it.
		for i := range u.Results().Len() {
			if carries(u.Results().At(i).Type(), fl, seen) {
				return true
			}
		}
		for i := range u.Params().Len() {
			pt := u.Params().At(i).Type()
			if configArg(pt, fl) || carries(pt, &optionFlag{option: fl.option, ownerPkg: fl.ownerPkg, ownerName: fl.ownerName}, seen) {
				return true // handed the configuration, or a place options are kept in
			}
		}
	}
	return false
}

// configArg reports whether a parameter of type t is handed the
// configuration itself: the owner, or a pointer to it; where the owner is
// not known (a caller in another package), the type of the flag's
// package its key names.
func configArg(t types.Type, fl *optionFlag) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if fl.owner != nil {
		return types.Identical(t, fl.owner)
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && fl.ownerPkg != "" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == fl.ownerPkg && n.Obj().Name() == fl.ownerName
}

// configuredBy reports whether the object addr points into is made in fn
// from its options parameter opts: a value fn allocates, or the first
// result of a function of the package that allocates what it returns and
// is handed opts (or a list of options built on it).
func (a *analyzer) configuredBy(fn *ssa.Function, addr ssa.Value, opts *ssa.Parameter, fl *optionFlag) bool {
	for {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			break
		}
		addr = fa.X
	}
	if ld, ok := addr.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// The variable holding it, when a closure captures it too.
		if cell, ok := ld.X.(*ssa.Alloc); ok && isCell(cell) {
			if v := lockstate.SetOnce(cell); v != nil {
				addr = v
			}
		}
	}
	switch root := addr.(type) {
	case *ssa.Alloc:
		return root.Parent() == fn && !isCell(root)
	case *ssa.Extract:
		call, ok := root.Tuple.(*ssa.Call)
		if !ok || root.Index != 0 {
			return false
		}
		return a.configuringCall(call, opts, fl)
	case *ssa.Call:
		return a.configuringCall(root, opts, fl)
	}
	return false
}

// configuringCall reports whether call is of a function of the package,
// not a method, that allocates the pointer it returns first and is handed
// opts, and whose other parameters carry neither options nor
// configurations.
func (a *analyzer) configuringCall(call *ssa.Call, opts *ssa.Parameter, fl *optionFlag) bool {
	g := StaticCallee(call.Common())
	if g == nil || g.Pkg != a.pkg || g.Signature.Recv() != nil || g.Parent() != nil {
		return false
	}
	p := optionsParam(g, fl)
	if p < 0 || p >= len(call.Call.Args) || !slices.Contains(optionBases(call.Call.Args[p], 0), ssa.Value(opts)) {
		return false
	}
	return allocatesFirstResult(g)
}

// optionBases returns the lists a list of options is built on: itself, or
// what an append extends or a slice expression cuts.
func optionBases(v ssa.Value, depth int) []ssa.Value {
	if depth > maxCondDepth {
		return nil
	}
	out := []ssa.Value{v}
	switch x := v.(type) {
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(x.Call.Args) == 2 {
			out = append(out, optionBases(x.Call.Args[0], depth+1)...)
			out = append(out, optionBases(x.Call.Args[1], depth+1)...)
		}
	case *ssa.Slice:
		out = append(out, optionBases(x.X, depth+1)...)
	case *ssa.Phi:
		for _, e := range x.Edges {
			out = append(out, optionBases(e, depth+1)...)
		}
	}
	return out
}

// allocatesFirstResult reports whether every return of g hands back, as
// its first result, a pointer g allocates or nil.
func allocatesFirstResult(g *ssa.Function) bool {
	if g.Signature.Results().Len() == 0 {
		return false
	}
	if _, ok := g.Signature.Results().At(0).Type().Underlying().(*types.Pointer); !ok {
		return false
	}
	any := false
	for _, b := range g.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		any = true
		if !allocatedHere(g, ret.Results[0], 0) {
			return false
		}
	}
	return any
}

// allocatedHere reports whether v is nil or an object g allocates, also
// through φs and a named result's variable.
func allocatedHere(g *ssa.Function, v ssa.Value, depth int) bool {
	if depth > maxCondDepth {
		return false
	}
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.Alloc:
		return x.Parent() == g && x.Heap && !isCell(x)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !allocatedHere(g, e, depth+1) {
				return false
			}
		}
		return true
	case *ssa.UnOp:
		// A named result, kept in a variable (a deferred closure sees
		// it): every value stored into it.
		cell, ok := x.X.(*ssa.Alloc)
		if x.Op != token.MUL || !ok || cell.Parent() != g {
			return false
		}
		stored := false
		for _, ref := range *cell.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if !allocatedHere(g, ref.Val, depth+1) {
					return false
				}
				stored = true
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.MakeClosure:
				// Captured by a deferred closure: it may
				// reassign it.
				return false
			default:
				return false
			}
		}
		return stored
	}
	return false
}

// optionCond is the condition a guard on an option flag's atom makes.
func optionCond(at atom, val bool) lockstate.Cond {
	return lockstate.Cond{Param: at.param, Opt: at.opt, Setters: at.setters, Value: val}
}
