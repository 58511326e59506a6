package summary

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// An Origin says what a called func value can be: the functions the package
// puts there, and whether it can also hold code the package does not decide.
type Origin struct {
	// Targets are the functions and closures the package stores, passes or
	// returns there.
	Targets []*ssa.Function
	// Bound marks the targets that are methods reached as method values
	// (x.M): a call passes their receiver implicitly.
	Bound map[*ssa.Function]bool
	// Supplied, when not empty, says which data that the package's callers
	// supply the value comes from: "an element of a slice", "a parameter of
	// exported Do", "exported field Options.OnEvict". Calling it runs their
	// code (a queued job, a registered callback).
	Supplied string
	// Unknown, when not empty, says where else the value can come from that
	// the package does not decide: "a result of pkg.F", "exported variable
	// Now, which other packages may set".
	Unknown string
	// Program, when the value is Supplied, are the functions the package
	// itself supplies there (its own calls of the exported function that
	// takes it): code the program runs, whose locks count for deadlocks,
	// though what they block on is not judged as the call's own.
	Program []*ssa.Function
	// Bindings holds, for a closure target that a package function makes
	// and returns (handleStarted, cleanup := s.preStart()), its captured
	// values in the frame of the function that called it: the call's
	// argument for each one that is a parameter of the maker, nil for the
	// others (see resultBindings).
	Bindings map[*ssa.Function][]ssa.Value
}

// TargetBindings returns the captured values of the closure target t in
// the caller's frame, when a package function returned it; nil otherwise.
func (o Origin) TargetBindings(t *ssa.Function) []ssa.Value { return o.Bindings[t] }

// Closed reports whether the package decides every value: the call can
// only run Targets.
func (o Origin) Closed() bool { return o.Supplied == "" && o.Unknown == "" }

// mergeProgram adds p's functions, decided or supplied by the package, to
// o's Program.
func (o *Origin) mergeProgram(p Origin) {
	o.addFuncs(&o.Program, p.Targets, p.Bound)
	o.addFuncs(&o.Program, p.Program, p.Bound)
	for t, bs := range p.Bindings {
		o.addBindings(t, bs)
	}
}

// addBindings records the caller-frame bindings bs of the closure target
// t; two different sets for one target (two returns binding different
// values) leave it with none.
func (o *Origin) addBindings(t *ssa.Function, bs []ssa.Value) {
	if o.Bindings == nil {
		o.Bindings = map[*ssa.Function][]ssa.Value{}
	}
	if old, ok := o.Bindings[t]; ok && !slices.Equal(old, bs) {
		o.Bindings[t] = nil
		return
	}
	o.Bindings[t] = bs
}

// addFuncs adds fns to *list, without repeats, and marks in o.Bound those
// that bound marks: method values.
func (o *Origin) addFuncs(list *[]*ssa.Function, fns []*ssa.Function, bound map[*ssa.Function]bool) {
	for _, t := range fns {
		if !slices.Contains(*list, t) {
			*list = append(*list, t)
		}
		if bound[t] {
			if o.Bound == nil {
				o.Bound = map[*ssa.Function]bool{}
			}
			o.Bound[t] = true
		}
	}
}

func (o *Origin) merge(p Origin) {
	o.addFuncs(&o.Targets, p.Targets, p.Bound)
	if o.Supplied == "" {
		o.Supplied = p.Supplied
	}
	if o.Unknown == "" {
		o.Unknown = p.Unknown
	}
	o.addFuncs(&o.Program, p.Program, p.Bound)
}

// maxOriginDepth bounds the steps followed back from a call to the values
// it can call.
const maxOriginDepth = 8

// FuncOrigin returns what the func value v, called in fn, can be. It follows
// the value back through local variables, closures' captured variables,
// parameters (to the arguments at every call site in the package, for
// functions other packages cannot call), results of the package's
// functions, struct fields and package-level variables (to every store in
// the package).
func (r *Result) FuncOrigin(fn *ssa.Function, v ssa.Value) Origin {
	return r.a.origin(fn, v, 0)
}

func (a *analyzer) origin(fn *ssa.Function, v ssa.Value, depth int) Origin {
	if depth > maxOriginDepth {
		return Origin{Unknown: "a value passed through many steps"}
	}
	if o, ok := a.origins[v]; ok {
		return o
	}
	a.origins[v] = Origin{} // in progress: a cycle adds nothing
	o := a.originOf(fn, v, depth+1)
	if depth == 0 && sizerFunc(v) && o.Supplied != "" {
		// A size or cost function: what users supply measures. What
		// the package stores or supplies there itself is judged as its
		// own code, and a value of unknown origin (another package's
		// method value) stays unknown.
		o.addFuncs(&o.Targets, o.Program, o.Bound)
		o.Supplied, o.Program = "", nil
	}
	if o.Supplied != "" || o.Unknown != "" {
		// A value of a func type only the package can make (an option
		// over its unexported config, passed in by callers) is one of
		// the package's own conversions to the type.
		if n := a.sealedFunc(v.Type()); n != nil {
			if so := a.sealedFuncOrigin(n); so.Closed() {
				o = so
			}
		}
	}
	a.origins[v] = o
	return o
}

func (a *analyzer) originOf(fn *ssa.Function, v ssa.Value, depth int) Origin {
	if isCancelFunc(v) {
		return Origin{} // cancelling a context under a lock is idiomatic
	}
	if depth == 1 && cheapFunc(v) || settingGetter(v) {
		return Origin{} // a comparator, hash, clock or getter by convention
	}
	switch v := v.(type) {
	case *ssa.Function:
		return Origin{Targets: []*ssa.Function{v}}
	case *ssa.MakeClosure:
		g, _ := v.Fn.(*ssa.Function)
		if g == nil {
			return Origin{Unknown: "a closure"}
		}
		if m, iface, ok := BoundMethod(g); ok {
			if iface || m == nil {
				return Origin{Unknown: "a method value of an interface"}
			}
			return Origin{Targets: []*ssa.Function{m}, Bound: map[*ssa.Function]bool{m: true}}
		}
		return Origin{Targets: []*ssa.Function{g}}
	case *ssa.Const:
		return Origin{} // nil
	case *ssa.ChangeType:
		return a.origin(fn, v.X, depth)
	case *ssa.Convert:
		return a.origin(fn, v.X, depth)
	case *ssa.MakeInterface:
		return a.origin(fn, v.X, depth)
	case *ssa.TypeAssert:
		return a.origin(fn, v.X, depth)
	case *ssa.Phi:
		var o Origin
		for _, e := range v.Edges {
			o.merge(a.origin(fn, e, depth))
		}
		return o
	case *ssa.Parameter:
		return a.paramOrigin(fn, v, depth)
	case *ssa.FreeVar:
		return a.bindingOrigin(fn, v, depth, false)
	case *ssa.UnOp:
		switch v.Op {
		case token.ARROW:
			return a.elemOrigin(fn, v.X, depth)
		case token.MUL:
			return a.loadOrigin(fn, v.X, depth)
		}
	case *ssa.Lookup:
		return a.elemOrigin(fn, v.X, depth)
	case *ssa.Index:
		return a.elemOrigin(fn, v.X, depth)
	case *ssa.Field:
		if f := structField(v.X.Type(), v.Field); f != nil {
			return a.fieldOrigin(f, a.sealedStruct(v.X.Type()), depth)
		}
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Call:
			return a.resultOrigin(t, v.Index, depth)
		case *ssa.Lookup:
			return a.elemOrigin(fn, t.X, depth)
		case *ssa.Next:
			if rng, ok := t.Iter.(*ssa.Range); ok {
				return a.elemOrigin(fn, rng.X, depth)
			}
		case *ssa.UnOp:
			return a.elemOrigin(fn, t.X, depth)
		case *ssa.TypeAssert:
			return a.origin(fn, t.X, depth)
		}
	case *ssa.Call:
		return a.resultOrigin(v, 0, depth)
	}
	return Origin{Unknown: "a value computed here"}
}

// loadOrigin resolves a value loaded from addr.
func (a *analyzer) loadOrigin(fn *ssa.Function, addr ssa.Value, depth int) Origin {
	switch addr := addr.(type) {
	case *ssa.Alloc:
		return a.cellOrigin(fn, addr, depth)
	case *ssa.FreeVar:
		return a.bindingOrigin(fn, addr, depth, true)
	case *ssa.Global:
		return a.globalOrigin(addr, depth)
	case *ssa.FieldAddr:
		if f := FieldVar(addr); f != nil {
			return a.fieldOrigin(f, a.sealedStruct(addr.X.Type()), depth)
		}
	case *ssa.IndexAddr:
		return a.elemOrigin(fn, addr.X, depth)
	}
	return Origin{Unknown: "a value loaded through a pointer"}
}

// cellOrigin resolves what a local variable (its cell) holds: every store
// into it, here and in the closures that capture it.
func (a *analyzer) cellOrigin(fn *ssa.Function, cell *ssa.Alloc, depth int) Origin {
	var o Origin
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == cell {
				o.merge(a.origin(fn, r.Val, depth))
			}
		case *ssa.MakeClosure:
			g, _ := r.Fn.(*ssa.Function)
			if g == nil {
				continue
			}
			for i, b := range r.Bindings {
				if b != cell || i >= len(g.FreeVars) {
					continue
				}
				for _, fref := range *g.FreeVars[i].Referrers() {
					if st, ok := fref.(*ssa.Store); ok && st.Addr == g.FreeVars[i] {
						o.merge(a.origin(g, st.Val, depth))
					}
				}
			}
		}
	}
	return o
}

// bindingOrigin resolves a closure's free variable through the values its
// parent binds to it, at every MakeClosure of the closure. cell is true
// when the free variable is a captured variable's cell (loaded through).
func (a *analyzer) bindingOrigin(fn *ssa.Function, fv *ssa.FreeVar, depth int, cell bool) Origin {
	parent := fn.Parent()
	if parent == nil {
		return Origin{Unknown: "a captured variable"}
	}
	idx := slices.Index(fn.FreeVars, fv)
	var o Origin
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || idx < 0 || idx >= len(mc.Bindings) {
				continue
			}
			if cell {
				o.merge(a.loadOrigin(parent, mc.Bindings[idx], depth))
			} else {
				o.merge(a.origin(parent, mc.Bindings[idx], depth))
			}
		}
	}
	return o
}

// globalOrigin resolves a package-level func variable through every store
// into it (its initialiser included). Another package's variable, or an
// exported one, can hold what other packages put there.
func (a *analyzer) globalOrigin(g *ssa.Global, depth int) Origin {
	obj := g.Object()
	if g.Pkg == nil || g.Pkg != a.pkg {
		return Origin{Unknown: "variable " + g.Name() + " of another package"}
	}
	var o Origin
	for _, s := range a.indexed().globalStores[g] {
		o.merge(a.origin(s.fn, s.val, depth))
	}
	if obj != nil && obj.Exported() {
		o.merge(Origin{Unknown: "exported variable " + g.Name() + ", which other packages may set"})
	}
	return o
}

// fieldOrigin resolves a func field through every store into it in the
// package, composite literals included. An exported field is a hook that
// the package's users set: a registered callback, unless its struct is
// sealed (an unexported type no exported type embeds), which only the
// package can fill in.
func (a *analyzer) fieldOrigin(f *types.Var, sealed bool, depth int) Origin {
	f = f.Origin()
	var o Origin
	switch {
	case sealed:
	case f.Exported() && f.Pkg() != nil && internalPath(f.Pkg().Path()):
		// Only the module can set it, possibly in a package not
		// visible from here.
		o.Unknown = "exported field " + f.Name() + " of an internal package, which the module sets"
	case f.Exported() && namesInternal(f.Type()) != "":
		o.Unknown = "exported field " + f.Name() + " whose type names " + namesInternal(f.Type()) + ", which only the module can supply"
	case f.Exported():
		o.Supplied = "exported field " + f.Name() + ", which callers set"
	}
	if f.Pkg() != a.pkg.Pkg {
		if o.Supplied == "" {
			o.Unknown = "field " + f.Name() + " of another package's type"
		}
		return o
	}
	stores := a.indexed().fieldStores[f]
	for _, s := range stores {
		o.merge(a.origin(s.fn, s.val, depth))
	}
	if len(stores) == 0 && o.Supplied == "" && o.Unknown == "" {
		o.Unknown = "field " + f.Name() + ", which the package never sets"
	}
	return o
}

// paramOrigin resolves a parameter through the arguments of every call in
// the package. An exported function's (or method's) parameters are
// supplied by its callers; a function used as a value can be called from
// anywhere.
func (a *analyzer) paramOrigin(fn *ssa.Function, p *ssa.Parameter, depth int) Origin {
	i := slices.Index(fn.Params, p)
	decl := declaredFn(fn)
	if i == 0 && fn.Signature.Recv() != nil {
		// A func-typed receiver (an option or handler type's method):
		// the value is whatever was converted to the type.
		if n, ok := types.Unalias(p.Type()).(*types.Named); ok && n.Obj().Pkg() == a.pkg.Pkg {
			if _, isFunc := n.Underlying().(*types.Signature); isFunc {
				if sealed := a.sealedFunc(n); sealed != nil {
					return a.sealedFuncOrigin(sealed)
				}
				return Origin{Supplied: "a func the package's callers convert to " + n.Obj().Name()}
			}
		}
	}
	if fn.Parent() == nil && a.callableOutside(decl) {
		if why := TestSupport(decl); why != "" {
			// A constructor or setter that is there for tests
			// (NewTestEngine, SetClockForTesting): the program's
			// users do not supply code through it.
			return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg) + ", " + why}
		}
		if internalPath(a.pkg.Pkg.Path()) {
			// Only the module calls it, from packages not visible
			// here.
			return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg) + ", which the module calls from other packages"}
		}
		if t := namesInternal(p.Type()); t != "" {
			// Only the module can write a func of this type.
			return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg) + " whose type names " + t + ", which only the module can supply"}
		}
		// Other packages' values are open, but what the package's own
		// calls pass is code the program does run: kept apart, for the
		// locks it takes (w.SetOnEvent(c.processEvent)).
		o := Origin{Supplied: "a parameter of exported " + SSAFuncName(decl, a.pkg.Pkg)}
		for _, cs := range a.indexed().calls[decl] {
			if i >= 0 && i < len(cs.call.Args) {
				o.mergeProgram(a.origin(cs.fn, cs.call.Args[i], depth))
			}
		}
		return o
	}
	if a.indexed().escapes[decl] {
		return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg) + ", which is also called indirectly"}
	}
	if obj := FuncObject(decl); obj != nil && a.indexed().invoked[obj] {
		return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg) + ", which is also called through an interface"}
	}
	if fn.Parent() == nil && a.funcs[decl] == nil {
		return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg)}
	}
	calls := a.indexed().calls[decl]
	if len(calls) == 0 {
		return Origin{Unknown: "a parameter of " + SSAFuncName(decl, a.pkg.Pkg) + ", which the package never calls"}
	}
	var o Origin
	for _, cs := range calls {
		if i >= 0 && i < len(cs.call.Args) {
			o.merge(a.origin(cs.fn, cs.call.Args[i], depth))
		}
	}
	return o
}

// resultOrigin resolves the idx'th result of a call: through the returns of
// a function of the package; a function of the standard library returns
// its own code (an iterator, a cancel function); other results are not
// decided here.
func (a *analyzer) resultOrigin(call *ssa.Call, idx int, depth int) Origin {
	c := call.Common()
	if c.IsInvoke() {
		return Origin{Unknown: "a result of interface method " + c.Method.Name()}
	}
	callee := StaticCallee(c)
	if callee == nil {
		return Origin{Unknown: "a result of a func value"}
	}
	decl := a.declared(callee)
	if a.funcs[decl] != nil {
		var o Origin
		for _, b := range decl.Blocks {
			if ret, ok := lastInstr(b).(*ssa.Return); ok && idx < len(ret.Results) {
				o.merge(a.origin(decl, ret.Results[idx], depth))
				if t, bs := resultBindings(decl, ret.Results[idx], call); t != nil {
					o.addBindings(t, bs)
				}
			}
		}
		return o
	}
	if obj := FuncObject(callee); obj != nil && inStd(callee.Prog.Fset, obj) {
		return Origin{}
	}
	return Origin{Unknown: "a result of " + SSAFuncName(callee, a.pkg.Pkg)}
}

// cheapFunc reports whether the called func value v is cheap by convention
// (see catalog.CheapFunc).
func cheapFunc(v ssa.Value) bool {
	return catalog.CheapFunc(lastName(v), v.Type())
}

// sizerFunc reports whether the called func value v measures by its role
// (see catalog.SizerFunc).
func sizerFunc(v ssa.Value) bool {
	return catalog.SizerFunc(lastName(v), v.Type())
}

// lastName returns the last element of the expression that names v: the
// field, variable or parameter (c.opts.less is less).
func lastName(v ssa.Value) string {
	name := ValueName(v)
	if i := strings.LastIndexAny(name, ".]"); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// settingGetter reports whether v is a setting: a getter read from a field
// of an options or configuration struct (opts.MaxConcurrentCompactions,
// cfg.WALMinSyncInterval), wherever it is later kept. A getter takes no
// parameters and returns one value, or resolves a setting by name
// (resolvesByName: cfg.GetChannelOptions(channel)). An element of a
// field's list of getters (factories: opts.PropertyCollectors[i]) is one.
func settingGetter(v ssa.Value) bool {
	sig, ok := v.Type().Underlying().(*types.Signature)
	if !ok {
		return false
	}
	getter := sig.Params().Len() == 0 && sig.Results().Len() == 1
	if !getter && (!resolvesByName(sig) || Computes(sig)) {
		return false
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	x := load.X
	if ia, ok := x.(*ssa.IndexAddr); ok {
		// An element of a list of getters (a factory per table:
		// opts.PropertyCollectors[i]).
		x = ia.X
		if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
			x = u.X
		}
	}
	for {
		fa, ok := x.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		if n := namedPointee(fa.X.Type()); n != nil && catalog.SettingsType(n.Obj().Name()) {
			return true
		}
		x = fa.X
		if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
			x = u.X
		}
	}
}

// resolvesByName reports whether sig looks a setting up by name: its
// parameters are plain data, one of them text (a channel's or a tenant's
// name), and it returns values only (a struct of options, a label, a
// number, an ok bool), no error and no interface: a loader that can fail
// or hands back a live object is a hook. One that computes a number from
// its arguments (a weigher) is judged by Computes instead: a plausible
// callback.
func resolvesByName(sig *types.Signature) bool {
	if sig.Results().Len() == 0 || sig.Variadic() || !keyedByText(sig) {
		return false
	}
	for v := range sig.Results().Variables() {
		if _, isIface := v.Type().Underlying().(*types.Interface); isIface || !byValue(v.Type()) {
			return false
		}
	}
	return true
}

// TargetArgs returns the arguments a call with args passes to target t:
// a method reached as a method value gets its receiver first, unknown here
// (nil).
func (o Origin) TargetArgs(t *ssa.Function, args []ssa.Value) []ssa.Value {
	if o.Bound[t] {
		return append([]ssa.Value{nil}, args...)
	}
	return args
}

// structField returns field i of the struct type t (or of what t points to).
func structField(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// namesInternal returns a type of an internal package that the func type
// t names in its parameters or results (func() wrr.WRR, where wrr is the
// module's internal/wrr), or "". Code outside the module cannot import
// that package, so it cannot write such a func: only the module supplies
// one.
func namesInternal(t types.Type) string {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok {
		return ""
	}
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := range tuple.Len() {
			if n := internalNamed(tuple.At(i).Type(), 0); n != "" {
				return n
			}
		}
	}
	return ""
}

// internalNamed returns the first named type of an internal package in t,
// through pointers, slices, arrays, maps and channels, or "".
func internalNamed(t types.Type, depth int) string {
	if depth > 4 {
		return ""
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil && internalPath(p.Path()) {
			return p.Name() + "." + t.Obj().Name()
		}
	case *types.Pointer:
		return internalNamed(t.Elem(), depth+1)
	case *types.Slice:
		return internalNamed(t.Elem(), depth+1)
	case *types.Array:
		return internalNamed(t.Elem(), depth+1)
	case *types.Chan:
		return internalNamed(t.Elem(), depth+1)
	case *types.Map:
		if n := internalNamed(t.Key(), depth+1); n != "" {
			return n
		}
		return internalNamed(t.Elem(), depth+1)
	}
	return ""
}

// sealedStruct reports whether t (or what it points to) is an unexported
// struct type of the package that no exported type of the package embeds,
// directly or through other unexported types, and that the exported API
// never hands out: other packages cannot reach its fields, even exported
// ones (a queue entry's DoneCb).
func (a *analyzer) sealedStruct(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Exported() || n.Obj().Pkg() != a.pkg.Pkg {
		return false
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return false
	}
	if a.sealed == nil {
		a.sealed = map[*types.TypeName]bool{}
	}
	if s, ok := a.sealed[n.Obj()]; ok {
		return s
	}
	s := !a.embeddedOutward(n.Obj(), map[*types.TypeName]bool{}) && !a.inAPI(n, false)
	a.sealed[n.Obj()] = s
	return s
}

// embeddedOutward reports whether a struct type of the package that other
// packages can name embeds the type named obj, directly or through
// unexported struct types that are themselves so embedded.
func (a *analyzer) embeddedOutward(obj *types.TypeName, seen map[*types.TypeName]bool) bool {
	if seen[obj] {
		return false
	}
	seen[obj] = true
	for tn, inner := range embeddings(a.pkg.Pkg.Scope()) {
		if inner.Obj() == obj && (tn.Exported() || a.embeddedOutward(tn, seen)) {
			return true
		}
	}
	return false
}

// sealedFunc returns t when it is a func type of the package that only the
// package can make values of: unexported, and never taken in by the
// exported API (a parameter of an exported function, an exported field or
// variable), where a user's func literal would be assignable to it; or
// one whose parameters name an unexported type of the package, which no
// other package can write a func literal for. An option type such as
// type optFunc func(*options) error, or an exported type Option
// func(*options) with unexported options, made by the package's option
// constructors, is one.
func (a *analyzer) sealedFunc(t types.Type) *types.Named {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != a.pkg.Pkg {
		return nil
	}
	sig, isFunc := n.Underlying().(*types.Signature)
	if !isFunc {
		return nil
	}
	if (n.Obj().Exported() || a.inAPI(n, true)) && !a.takesUnexported(sig) {
		return nil
	}
	return n
}

// takesUnexported reports whether a parameter of sig is, or points to, an
// unexported named type of the package (func(o *options)): a func literal
// of that signature can only be written in the package.
func (a *analyzer) takesUnexported(sig *types.Signature) bool {
	for p := range sig.Params().Variables() {
		t := p.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == a.pkg.Pkg && !n.Obj().Exported() {
			return true
		}
	}
	return false
}

// sealedFuncOrigin returns what a value of the sealed func type n can be:
// the union of every conversion to n (to any instantiation of it, for a
// generic type) in the package's non-test files, which is closed
// unless one of them converts a value the package does not decide.
func (a *analyzer) sealedFuncOrigin(n *types.Named) Origin {
	if o, ok := a.sealedFuncs[n.Obj()]; ok {
		return o
	}
	if a.sealedFuncs == nil {
		a.sealedFuncs = map[*types.TypeName]Origin{}
	}
	a.sealedFuncs[n.Obj()] = Origin{} // in progress: a cycle adds nothing
	var o Origin
	for _, fn := range a.srcFuncs {
		if srcname.InTest(fn.Prog.Fset, fn.Pos()) {
			continue // a test's stand-in is not what the program runs
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if ct, ok := instr.(*ssa.ChangeType); ok && sameNamed(ct.Type(), n) {
					o.merge(a.origin(fn, ct.X, 1))
				}
			}
		}
	}
	a.sealedFuncs[n.Obj()] = o
	return o
}

// sameNamed reports whether t is the named type n or, for a generic type,
// an instantiation of the same type (ipQueueOpt[T] and ipQueueOpt[*msg]):
// a value of either is one of the package's conversions to the type.
func sameNamed(t types.Type, n *types.Named) bool {
	m, ok := types.Unalias(t).(*types.Named)
	return ok && m.Obj() == n.Obj()
}

// resultBindings returns the closure that decl returns as r (made there,
// directly or through a named result), and its captured values in the
// frame of call, decl's caller: a captured parameter of decl is the call's
// argument for it; anything else decl computes is nil, unknown to the
// caller.
//
//	func (s *service) preStart() (handleStarted func(*container)) {
//		handleStarted = func(c *container) { s.handleExit(c) } // s: the call's receiver
//		return handleStarted
//	}
func resultBindings(decl *ssa.Function, r ssa.Value, call *ssa.Call) (*ssa.Function, []ssa.Value) {
	if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if cell, ok := ld.X.(*ssa.Alloc); ok {
			r = lockstate.SetOnce(cell) // a named result
		}
	}
	mc, ok := r.(*ssa.MakeClosure)
	if !ok {
		return nil, nil
	}
	g, _ := mc.Fn.(*ssa.Function)
	if g == nil || len(mc.Bindings) == 0 {
		return nil, nil
	}
	if _, _, bound := BoundMethod(g); bound {
		return nil, nil
	}
	out := make([]ssa.Value, len(mc.Bindings))
	for i, b := range mc.Bindings {
		v := b
		if cell, ok := b.(*ssa.Alloc); ok {
			v = lockstate.CellValue(cell)
		}
		if p, ok := v.(*ssa.Parameter); ok {
			if j := slices.Index(decl.Params, p); j >= 0 && j < len(call.Call.Args) {
				out[i] = call.Call.Args[j]
			}
		}
	}
	return g, out
}
