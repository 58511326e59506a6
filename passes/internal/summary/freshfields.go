package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A field of an object that a function allocates is decided at a call in
// that function (a guard such as "if w.output != nil" in the callee) by
// its zero value, unless the function assigns it (evalCond) or hands the
// object, before or after, to code that may: a function of the package
// that writes the field, directly or through the functions it calls
// (w.init(); w.start()), a closure that does, or, for an exported field,
// any other package (encoding/json fills exported fields). A func value
// handed the object (the options of a constructor: for _, opt := range
// opts { opt(&w) }) may write an unexported field only if a function or
// closure of the package of the func value's type writes it, and an
// interface method only if a method of that name does.

// A writerIndex answers, for one package, which of its functions write a
// field of an object they are handed: a store into an object the function
// allocates itself builds that object and does not count. One scan of the
// package, on first use, records each field's direct writers (stores, whole
// structs stored through a pointer, addresses handed on) and who calls (or
// makes, for a closure) each function;
// a field's writers are then its direct writers and, transitively, their
// callers. It is built with the package's analysis and queried while it
// and the analyzers that use its Result run, one at a time (Of).
type writerIndex struct {
	pkg   *ssa.Package
	funcs []*ssa.Function // the package's source functions, closures included

	scanned bool
	stores  map[*types.Var][]*ssa.Function    // the functions that store to a field
	callers map[*ssa.Function][]*ssa.Function // who calls a function of the package, or makes a closure
	byField map[*types.Var]map[*ssa.Function]bool

	// zeros memoises zeroVia, which follows the field addresses of the
	// package's index (see embeddedfields.go).
	zeros map[embedKey]bool
	index func() *pkgIndex
}

func newWriterIndex(pkg *ssa.Package, funcs []*ssa.Function, index func() *pkgIndex) *writerIndex {
	return &writerIndex{pkg: pkg, funcs: funcs, index: index, byField: map[*types.Var]map[*ssa.Function]bool{}}
}

// scan records the package's field stores and call edges.
func (w *writerIndex) scan() {
	w.scanned = true
	w.stores = map[*types.Var][]*ssa.Function{}
	w.callers = map[*ssa.Function][]*ssa.Function{}
	for _, fn := range w.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if fa, ok := instr.Addr.(*ssa.FieldAddr); ok && !builtHere(fn, fa.X) {
						if f := structField(fa.X.Type(), fa.Field); f != nil {
							w.record(f, fn)
						}
					} else if !ok {
						w.wholeStore(fn, instr)
					}
				case *ssa.FieldAddr:
					if !builtHere(fn, instr.X) && addressOut(instr) {
						if f := structField(instr.X.Type(), instr.Field); f != nil {
							w.record(f, fn)
						}
					}
				case ssa.CallInstruction:
					if g := instr.Common().StaticCallee(); g != nil && g.Pkg == w.pkg {
						w.callers[g] = append(w.callers[g], fn)
					}
				case *ssa.MakeClosure:
					if g, ok := instr.Fn.(*ssa.Function); ok {
						w.callers[g] = append(w.callers[g], fn) // a closure may run where it is made
					}
				}
			}
		}
	}
}

// record notes that fn writes field f, under the field's declaration (a
// field of an instantiated generic struct is another types.Var).
func (w *writerIndex) record(f *types.Var, fn *ssa.Function) {
	w.stores[f.Origin()] = append(w.stores[f.Origin()], fn)
}

// wholeStore records the store of a whole struct through a pointer (*t =
// *other, *dst = Tx{writable: true}) as a store into each of its fields,
// unless it stores into a variable of fn or stores the zero value.
func (w *writerIndex) wholeStore(fn *ssa.Function, st *ssa.Store) {
	if a, ok := st.Addr.(*ssa.Alloc); ok && a.Parent() == fn {
		return
	}
	if k, ok := st.Val.(*ssa.Const); ok && k.Value == nil {
		return
	}
	p, ok := st.Addr.Type().Underlying().(*types.Pointer)
	if !ok {
		return
	}
	if s, ok := p.Elem().Underlying().(*types.Struct); ok {
		for f := range s.Fields() {
			w.record(f, fn)
		}
	}
}

// addressOut reports whether the address of a field goes anywhere but to
// loads and stores of the field itself (set(&c.dirty) writes it).
func addressOut(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return true
			}
		case *ssa.Store:
			if ref.Addr != fa {
				return true
			}
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef:
		default:
			return true
		}
	}
	return false
}

// builtHere reports whether obj is an object fn allocates (new(T), &T{}):
// a store into one of its fields builds that object and writes no field of
// an object fn is handed (beginRWTx's &Tx{writable: true} sets no other
// transaction's writable).
func builtHere(fn *ssa.Function, obj ssa.Value) bool {
	a, ok := obj.(*ssa.Alloc)
	return ok && a.Heap && a.Parent() == fn
}

// of returns the functions of the package that write field f, directly or
// through the functions of the package they call.
func (w *writerIndex) of(f *types.Var) map[*ssa.Function]bool {
	f = f.Origin() // as record keys it
	if ws, ok := w.byField[f]; ok {
		return ws
	}
	if !w.scanned {
		w.scan()
	}
	writers := map[*ssa.Function]bool{}
	queue := slices.Clone(w.stores[f])
	for len(queue) > 0 {
		fn := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if writers[fn] {
			continue
		}
		writers[fn] = true
		queue = append(queue, w.callers[fn]...)
	}
	w.byField[f] = writers
	return writers
}

// A judged call is the call whose callee's conditions are evaluated, with
// the index of its package's field writers. The zero value knows neither,
// and then a fresh object's fields are judged by fn's own stores only.
type judged struct {
	call    *ssa.CallCommon
	writers *writerIndex
	exits   *deferredExits // what deferred closures see (deferredexits.go)
	zeros   *resultZeros   // the fields of objects calls return fresh (resultzeros.go)
}

// keptZero reports whether the field name of an object of type typ that fn
// allocates or gets fresh from a call, and holds as aliases (the object,
// the loads of its variable, the temporaries of its literal), is still its
// zero value at the judged call: no other call or closure of fn that is
// handed the object may write it (see above).
//
// A sealed field (resultzeros.go), of this package or another, is written
// by no function of its own package on an object it is handed: a call
// into that package cannot write it, and a function of fn's package can
// only by copying whole structs.
func keptZero(fn *ssa.Function, at judged, typ types.Type, aliases []ssa.Value, name string, sealed bool) bool {
	f := fieldNamed(typ, name)
	if f == nil {
		return false
	}
	var writers map[*ssa.Function]bool
	if (f.Pkg() == fn.Pkg.Pkg || sealed) && at.writers.pkg == fn.Pkg {
		writers = at.writers.of(f)
	}
	vals := slices.Clone(aliases)
	for i := 0; i < len(vals); i++ {
		a := vals[i]
		for _, ref := range *a.Referrers() {
			var c *ssa.CallCommon
			switch ref := ref.(type) {
			case ssa.CallInstruction:
				c = ref.Common()
			case *ssa.MakeInterface, *ssa.ChangeType:
				// The object as an interface value or under another
				// type: what is called on it counts too.
				vals = append(vals, ref.(ssa.Value))
				continue
			case *ssa.MakeClosure:
				if g, ok := ref.Fn.(*ssa.Function); ok && writers[g] && !madeAfter(fn, ref, at.call) {
					return false
				}
				continue
			default:
				continue
			}
			if c == at.call || !handedTo(c, a) {
				continue
			}
			if !mayWrite(fn, c, f, writers, sealed) {
				continue
			}
			return false
		}
	}
	return true
}

// madeAfter reports whether the closure mc is made only after the call c
// of fn has run: later in the call's block, or in a block the call reaches
// and that cannot lead back to it (a goroutine started once the object is
// set up). A deferred call runs last: nothing is made after it.
func madeAfter(fn *ssa.Function, mc *ssa.MakeClosure, c *ssa.CallCommon) bool {
	if c == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok || ci.Common() != c {
				continue
			}
			if _, deferred := instr.(*ssa.Defer); deferred {
				return false
			}
			if mc.Block() == b {
				return slices.Index(b.Instrs, ssa.Instruction(mc)) > i && !reaches(b.Succs, []*ssa.BasicBlock{b})
			}
			return !reaches([]*ssa.BasicBlock{mc.Block()}, []*ssa.BasicBlock{b})
		}
	}
	return false
}

// handedTo reports whether call c is given v: as an argument, a receiver
// or the interface value a method is invoked on.
func handedTo(c *ssa.CallCommon, v ssa.Value) bool {
	return c.Value == v || slices.Contains(c.Args, v)
}

// mayWrite reports whether the call c, in fn, may write field f of an
// object it is handed (sealed: see keptZero).
func mayWrite(fn *ssa.Function, c *ssa.CallCommon, f *types.Var, writers map[*ssa.Function]bool, sealed bool) bool {
	if g := c.StaticCallee(); sealed && g != nil {
		switch {
		case g.Pkg != nil && g.Pkg.Pkg == f.Pkg():
			return false
		case g.Pkg == fn.Pkg:
			return writers[g]
		}
		return true
	}
	if f.Pkg() != fn.Pkg.Pkg && !sealed {
		return true // another package's object: its own code decides
	}
	if g := c.StaticCallee(); g != nil {
		if g.Pkg == fn.Pkg {
			return writers[g]
		}
		return f.Exported()
	}
	if f.Exported() {
		return true
	}
	// A func value or an interface method: only a function of the package
	// can reach an unexported field, so it writes the field only if one of
	// the writers can be what is called: a function or closure of the
	// func value's type, or a method of the invoked name.
	for w := range writers {
		if c.IsInvoke() {
			if w.Signature.Recv() != nil && w.Name() == c.Method.Name() {
				return true
			}
			continue
		}
		if w.Signature.Recv() == nil && types.Identical(w.Signature, c.Signature()) {
			return true
		}
	}
	return false
}

// fieldNamed returns the field name of the struct that t is, or points to.
func fieldNamed(t types.Type, name string) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

// judgedAt returns the judged call of a site (none for a nil site).
func (a *analyzer) judgedAt(st *site) judged {
	if st == nil {
		return judged{writers: a.writers, exits: a.exits, zeros: a.zeros}
	}
	return judged{call: st.call, writers: a.writers, exits: a.exits, zeros: a.zeros}
}
