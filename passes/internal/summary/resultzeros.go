package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A field of an object that a call returns is decided at a call in fn like
// one of an object fn allocates (freshfields.go) when the callee built the
// object: at each of its returns that can run with the call's arguments,
// the result is nil (a field of it is never tested: the load would crash
// first), an object the callee allocates and keeps the field of zero, or
// the result of a call of the same kind in its turn. bbolt's Begin(false)
// returns beginTx's &Tx{}, and only beginRWTx sets a transaction's
// writable, so a read-only View's rollback never rescans the free pages.
//
// A return whose result is not known to be such an object is excluded by
// its guards (guards.go): the result's field is zero unless the guards of
// one of those returns hold, which the call's arguments decide.

// maxUnless bounds the guarded returns kept per result.
const maxUnless = 8

// resultKey names a field of one result of a function.
type resultKey struct {
	fn    *ssa.Function
	index int
	name  string
}

// A zeroResult says whether a function's result has a field kept zero:
// always when ok and unless is empty, and otherwise unless all the
// conditions of one of unless's entries hold on the function's parameters.
type zeroResult struct {
	ok     bool
	unless [][]lockstate.Cond
}

// resultZeros computes, on demand, the zeroResults of the package's
// functions, once each.
type resultZeros struct {
	pkg     *ssa.Package
	guards  func(*ssa.Function) *guards
	summary func(*ssa.Function) *Summary
	writers *writerIndex
	exits   *deferredExits
	memo    map[resultKey]*zeroResult
	tests   map[*types.Var]bool // the fields the package's branches test
}

func newResultZeros(pkg *ssa.Package, guards func(*ssa.Function) *guards, summary func(*ssa.Function) *Summary, writers *writerIndex, exits *deferredExits) *resultZeros {
	return &resultZeros{pkg: pkg, guards: guards, summary: summary, writers: writers, exits: exits, memo: map[resultKey]*zeroResult{}}
}

// of returns whether result index of g keeps field name zero. A function
// met again while its own answer is computed (recursion) is not known.
func (r *resultZeros) of(g *ssa.Function, index int, name string) *zeroResult {
	k := resultKey{g, index, name}
	if z, ok := r.memo[k]; ok {
		return z
	}
	z := &zeroResult{}
	r.memo[k] = z
	if g.Pkg != r.pkg || len(g.Blocks) == 0 {
		return z
	}
	at := judged{writers: r.writers, exits: r.exits, zeros: r}
	var unless [][]lockstate.Cond
	guards := r.guards(g)
	for _, rv := range returned(g, index) {
		when := guards.when(rv.Block())
		u, ok := objectZero(g, at, rv.val, name, true)
		if !ok {
			if len(when) == 0 {
				return z
			}
			unless = append(unless, when)
			continue
		}
		for _, c := range u {
			unless = append(unless, slices.Concat(when, c))
		}
	}
	if len(unless) > maxUnless {
		return z
	}
	z.ok, z.unless = true, unless
	return z
}

// A returnedValue is a value a function returns, and the instruction that
// returns it or stores it into the result's slot.
type returnedValue struct {
	ssa.Instruction
	val ssa.Value
}

// returned lists the values g returns as its result index. A function with
// deferred calls returns what its last store into the result's slot put
// there (or its zero value): each store stands for a return, under the
// guards of its own block.
func returned(g *ssa.Function, index int) []returnedValue {
	var out []returnedValue
	for _, b := range g.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || index >= len(ret.Results) {
			continue
		}
		v := ret.Results[index]
		if slot := resultSlot(g, v); slot != nil {
			for _, ref := range *slot.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == slot && !slices.ContainsFunc(out, func(r returnedValue) bool { return r.Instruction == st }) {
					out = append(out, returnedValue{st, st.Val})
				}
			}
			continue
		}
		out = append(out, returnedValue{ret, v})
	}
	return out
}

// resultSlot returns the local variable of g that v loads when it is only
// stored and loaded in g (the result slot of a function with deferred
// calls), or nil.
func resultSlot(g *ssa.Function, v ssa.Value) *ssa.Alloc {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok || slot.Heap || slot.Parent() != g || !storedAndLoaded(slot, false) {
		return nil
	}
	return slot
}

// onlyReturned reports whether the variable cell is only stored into and
// loaded to be returned.
func onlyReturned(cell *ssa.Alloc) bool {
	return storedAndLoaded(cell, true)
}

// storedAndLoaded reports whether the variable cell is only stored into
// and loaded, with returned, only loaded to be returned.
func storedAndLoaded(cell *ssa.Alloc, returned bool) bool {
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != cell {
				return false
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
			if !returned {
				continue
			}
			for _, r := range *ref.Referrers() {
				if _, ok := r.(*ssa.Return); !ok {
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// returnedFresh returns, for v the result of a call in fn, whether the
// callee keeps its field name zero: unless the conditions of one of the
// entries hold on fn's parameters, where the call's arguments are fn's; ok
// is false when the callee does not keep it, or the call's arguments cannot
// rule out the returns that may not. The field must be sealed (below), as
// a fact's always is: no call can write it since.
func returnedFresh(fn *ssa.Function, at judged, v ssa.Value, name string) (unless [][]lockstate.Cond, ok bool) {
	if at.zeros == nil {
		return nil, false
	}
	var call *ssa.Call
	index := 0
	switch v := v.(type) {
	case *ssa.Extract:
		call, _ = v.Tuple.(*ssa.Call)
		index = v.Index
	case *ssa.Call:
		call = v
	}
	if call == nil {
		return nil, false
	}
	g := call.Common().StaticCallee()
	if g == nil {
		return nil, false
	}
	var z *zeroResult
	if g.Pkg == at.zeros.pkg {
		// The package's own object: the field must be one only its
		// constructors set, as a fact's is (exported), or another
		// goroutine could set it on the object where the callee keeps
		// it too (bbolt's db.txs).
		if f := fieldNamed(v.Type(), name); f == nil || !at.zeros.sealed(f) {
			return nil, false
		}
		z = at.zeros.of(g, index, name)
	} else {
		z = imported(at.zeros.summary(g), index, name)
	}
	if !z.ok {
		return nil, false
	}
	here := judged{call: call.Common(), writers: at.writers, exits: at.exits, zeros: at.zeros}
	for _, c := range z.unless {
		holds, out, dropped := condsHold(fn, here, c, call.Common().Args, nil)
		if !holds {
			continue // that return cannot run with these arguments
		}
		if dropped || len(out) == 0 {
			return nil, false
		}
		unless = append(unless, out)
	}
	return unless, true
}

// sealed reports whether field f keeps, wherever its object goes, the value
// it was built with: it is unexported, and no function of the package
// writes it on an object it is handed.
func (r *resultZeros) sealed(f *types.Var) bool {
	return !f.Exported() && f.Pkg() == r.pkg.Pkg && len(r.writers.of(f)) == 0
}

// imported returns what the fact s says of field name of result index.
func imported(s *Summary, index int, name string) *zeroResult {
	if s != nil {
		for _, z := range s.Zeros {
			if z.Result == index && z.Field == name {
				return &zeroResult{ok: true, unless: z.Unless}
			}
		}
	}
	return &zeroResult{}
}

// maxExportedZeros bounds the fields a fact lists.
const maxExportedZeros = 4

// exported returns the fields fn's fact lists (Summary.Zeros): the
// unexported fields of the package's structs that fn returns pointers to,
// that a branch of the package tests and no function of the package writes
// on an object it is handed, and that fn keeps zero under some arguments.
func (r *resultZeros) exported(fn *ssa.Function) []ZeroField {
	res := fn.Signature.Results()
	var out []ZeroField
	for i := range res.Len() {
		st := packageStruct(res.At(i).Type(), r.pkg.Pkg)
		if st == nil {
			continue
		}
		for f := range st.Fields() {
			if !r.sealed(f) || !r.tested(f) {
				continue
			}
			if z := r.of(fn, i, f.Name()); z.ok && len(out) < maxExportedZeros {
				out = append(out, ZeroField{Result: i, Field: f.Name(), Unless: z.unless})
			}
		}
	}
	return out
}

// packageStruct returns the struct t points to when it is a named type of
// pkg, or nil.
func packageStruct(t types.Type, pkg *types.Package) *types.Struct {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() != pkg {
		return nil
	}
	st, _ := named.Underlying().(*types.Struct)
	return st
}

// tested reports whether a branch of one of the package's functions tests
// field f (guards.go): the fields whose value a fact is worth carrying.
func (r *resultZeros) tested(f *types.Var) bool {
	if r.tests == nil {
		r.tests = map[*types.Var]bool{}
		for _, fn := range r.writers.funcs {
			for _, b := range fn.Blocks {
				if ifi, ok := lastInstr(b).(*ssa.If); ok {
					testedFields(ifi.Cond, r.tests, 0)
				}
			}
		}
	}
	return r.tests[f.Origin()]
}

// testedFields records the fields whose loads the branch condition v is
// made of.
func testedFields(v ssa.Value, into map[*types.Var]bool, depth int) {
	if depth > 4 {
		return
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			if f := structField(fa.X.Type(), fa.Field); f != nil {
				into[f.Origin()] = true
			}
			return
		}
		testedFields(v.X, into, depth+1)
	case *ssa.BinOp:
		testedFields(v.X, into, depth+1)
		testedFields(v.Y, into, depth+1)
	}
}

// objectZero reports whether field name of the object v still holds its
// zero value in fn: v is nil, an object fn allocates, or one a call of fn
// returns fresh (above), and fn stores no other value into the field (the
// unless conditions are as for returnedFresh). With handed, and always for
// a call's result, keptZero also rules out the calls of fn handed the
// object.
func objectZero(fn *ssa.Function, at judged, v ssa.Value, name string, handed bool) (unless [][]lockstate.Cond, ok bool) {
	v = stripConv(v)
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		// The object held in a variable set once (captured by the
		// goroutine it starts later, say).
		if cell, ok := u.X.(*ssa.Alloc); ok {
			v = frozenCell(cell) // heldIn adds its loads
		}
	}
	var typ types.Type
	sealed := false
	switch obj := v.(type) {
	case nil:
		return nil, false
	case *ssa.Const:
		return nil, obj.Value == nil // nil, or a zero struct
	case *ssa.Alloc:
		if obj.Parent() != fn {
			return nil, false
		}
		typ = obj.Type()
	default:
		if unless, ok = returnedFresh(fn, at, obj, name); !ok {
			return nil, false
		}
		typ, sealed, handed = obj.Type(), true, true
	}
	aliases, cells, ok := heldIn(fn, []ssa.Value{v}) // the object and the loads of its variables
	if !ok {
		return nil, false
	}
	if aliases, ok = storesNone(fn, aliases, name); !ok {
		return nil, false
	}
	if handed && at.writers != nil && !keptZero(fn, at, typ, slices.Concat(aliases, cells), name, sealed) {
		return nil, false
	}
	return unless, true
}

// heldIn adds to aliases the loads of the variables of fn that hold the
// object (t, err := db.Begin(false), with t captured by a deferred
// closure), and returns those variables: a closure made with one reaches
// the object too. Each must hold nothing else (frozenCell), or ok is false.
func heldIn(fn *ssa.Function, aliases []ssa.Value) (_, cells []ssa.Value, ok bool) {
	for i := 0; i < len(aliases); i++ {
		for _, ref := range *aliases[i].Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Val != aliases[i] {
				continue
			}
			cell, ok := st.Addr.(*ssa.Alloc)
			if !ok || cell.Parent() != fn || slices.Contains(cells, ssa.Value(cell)) {
				continue
			}
			if frozenCell(cell) != st.Val {
				if onlyReturned(cell) {
					continue // a result's slot (a function with defers)
				}
				return nil, nil, false
			}
			cells = append(cells, cell)
			for _, r := range *cell.Referrers() {
				if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL && !slices.Contains(aliases, ssa.Value(load)) {
					aliases = append(aliases, load)
				}
			}
		}
	}
	return aliases, cells, true
}

// storesNone reports whether fn stores nothing into field name of the
// object it holds as aliases; it returns aliases with the temporaries of
// the composite literals copied into the object.
func storesNone(fn *ssa.Function, aliases []ssa.Value, name string) ([]ssa.Value, bool) {
	for i := 0; i < len(aliases); i++ {
		obj := aliases[i]
		for _, ref := range *obj.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				if st, isStore := ref.(*ssa.Store); isStore && st.Addr == obj {
					// The whole object assigned: a composite literal
					// built in a temporary of fn and copied in (w :=
					// Writer{n: 1} for a w whose address is taken) has
					// the temporary's fields; a zero value has none.
					if _, zero := st.Val.(*ssa.Const); zero {
						continue
					}
					if tmp := literalTemp(fn, st.Val); tmp != nil && !slices.Contains(aliases, ssa.Value(tmp)) {
						aliases = append(aliases, tmp)
						continue
					}
					return nil, false
				}
				continue
			}
			if f := structField(fa.X.Type(), fa.Field); f == nil || f.Name() != name {
				continue
			}
			for _, r := range *fa.Referrers() {
				if _, isStore := r.(*ssa.Store); isStore {
					return nil, false
				}
			}
		}
	}
	return aliases, true
}
