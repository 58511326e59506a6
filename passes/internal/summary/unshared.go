package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file decides which locks no other goroutine can contend for yet:
// the locks of an object that a function has allocated, or has been handed
// by callers that all allocated it, and that has not been made reachable
// from elsewhere (stored, sent, captured, handed to code that keeps it)
// before the operation. A constructor that locks the object it is building
// while it reads its files holds an uncontended lock.

// Shared returns the locks of held that other goroutines can contend for
// at instruction at, in function f.
func (r *Result) Shared(f *Func, held []lockstate.Held, at ssa.Instruction) []lockstate.Held {
	return r.shared(f, held, at, strict)
}

// SharedBeyondWorkers is Shared, except that the object's own background
// workers, started by the package on it (go fs.flushLoop(), time.AfterFunc(d,
// fs.expire)) and not letting it escape, do not count: a lock only they can
// contend for delays none of the object's users. It is for operations that
// do not wait for another goroutine: holding such a lock while waiting for
// one of those workers can deadlock.
func (r *Result) SharedBeyondWorkers(f *Func, held []lockstate.Held, at ssa.Instruction) []lockstate.Held {
	return r.shared(f, held, at, workers)
}

func (r *Result) shared(f *Func, held []lockstate.Held, at ssa.Instruction, mode escapeMode) []lockstate.Held {
	out := held[:0:0]
	for _, h := range held {
		if f != nil && f.forever[h.Key] {
			continue // held for ever: no wait grows with what is done under it
		}
		if !r.unshared(f, h.ID, at, mode) {
			out = append(out, h)
		}
	}
	return out
}

// Unshared reports whether the lock l of function f belongs to an object
// that no other goroutine can reach yet at instruction at.
func (r *Result) Unshared(f *Func, l lockstate.ID, at ssa.Instruction) bool {
	return r.unshared(f, l, at, strict)
}

func (r *Result) unshared(f *Func, l lockstate.ID, at ssa.Instruction, mode escapeMode) bool {
	if f == nil || f.Flow == nil || f.InPlace {
		return false
	}
	var obj ssa.Value
	switch l.Root {
	case lockstate.RootLocal:
		alloc, cell := f.Flow.LocalRoot(l)
		switch {
		case alloc == nil:
		case !cell:
			obj = alloc
		default:
			// A variable (a named result) holding the object.
			if v, ok := cellValueAt(alloc, at).(*ssa.Alloc); ok {
				obj = v
			}
		}
	case lockstate.RootParam:
		if l.RootIndex < len(f.Fn.Params) {
			obj = f.Fn.Params[l.RootIndex]
		}
	case lockstate.RootValue:
		if call := f.Flow.CallRoot(l); call != nil {
			obj = call
		}
	case lockstate.RootFree:
		return r.a.unsharedCaptured(f.Fn, l, at, mode)
	}
	if obj == nil || !r.a.privateObject(f.Fn, obj, mode) && !r.a.releasedLock(f.Fn, obj, l.Class, l.Path, at, mode) {
		return false
	}
	return !r.a.escapesBefore(obj, at, nil, mode)
}

// privateObject reports whether v, a value of fn, is an object no other
// goroutine can reach where fn gets it: one fn allocates, one a private
// constructor returns, or a parameter unshared at entry. Whether it
// escapes afterwards is the caller's question.
func (a *analyzer) privateObject(fn *ssa.Function, v ssa.Value, mode escapeMode) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return !isCell(v)
	case *ssa.Call:
		return a.privateResult(v, mode)
	case *ssa.Parameter:
		u := a.unsharedParams[mode][fn]
		j := indexOf(fn.Params, v)
		return j >= 0 && j < len(u) && u[j]
	}
	return false
}

// privateResult reports whether call returns a new object that nothing
// else can reach yet: the callee is a constructor of the package (every
// return is an object it allocates, or another such call's result) that
// lets the object escape nowhere before it returns it.
func (a *analyzer) privateResult(call *ssa.Call, mode escapeMode) bool {
	callee := StaticCallee(call.Common())
	if callee == nil {
		return false
	}
	if d := a.declared(callee); a.funcs[d] == nil {
		// Another package's constructor, known by its fact.
		s := a.summary(callee)
		return s != nil && s.Fresh
	}
	return a.privateCtor(a.declared(callee), mode, 0)
}

func (a *analyzer) privateCtor(fn *ssa.Function, mode escapeMode, depth int) bool {
	if !a.freshResults[fn] || depth > 4 {
		return false
	}
	key := privateKey{fn, mode}
	if v, ok := a.private[key]; ok {
		return v
	}
	if a.private == nil {
		a.private = map[privateKey]bool{}
	}
	a.private[key] = false // while it is decided: a recursive constructor is not
	ok := true
	for _, b := range fn.Blocks {
		ret, isRet := lastInstr(b).(*ssa.Return)
		if !isRet || len(ret.Results) != 1 {
			continue
		}
		switch v := ret.Results[0].(type) {
		case *ssa.Alloc:
			ok = ok && len(a.escapes(v, mode)) == 0
		case *ssa.Call:
			callee := StaticCallee(v.Common())
			ok = ok && callee != nil && a.privateCtor(a.declared(callee), mode, depth+1) && len(a.escapes(v, mode)) == 0
		default:
			ok = false
		}
	}
	a.private[key] = ok
	return ok
}

// privateKey keys privateCtor's answers.
type privateKey struct {
	fn   *ssa.Function
	mode escapeMode
}

// paramFacts is one escape mode's verdict on the package's parameters.
type paramFacts struct {
	// nonLeaking flags, by function and parameter, the pointer and func
	// parameters that never escape through the function.
	nonLeaking map[*ssa.Function][]bool
	// flowsInto lists, for such a parameter, the other parameters whose
	// objects the function links it into.
	flowsInto map[*ssa.Function][][]int
}

// computeUnshared computes, for the package's functions and in each escape
// mode, which pointer parameters never escape through them (nonLeaking),
// then which are unshared at entry: the function can only be called from
// the package, and every call passes an object its caller allocated (or
// was itself handed unshared) and has not let escape before the call.
// Both are greatest fixpoints: assumptions are dropped until none is
// contradicted.
func (a *analyzer) computeUnshared(funcs []*ssa.Function) {
	a.freshResults = freshResults(funcs)
	for mode := range nModes {
		a.params[mode] = a.nonLeakingParams(funcs, mode)
		a.unsharedParams[mode] = a.unsharedAtEntry(funcs, mode)
	}
}

// nonLeakingParams computes mode's paramFacts. In workers mode closures
// count too: a worker can be a func literal taking the object.
func (a *analyzer) nonLeakingParams(funcs []*ssa.Function, mode escapeMode) paramFacts {
	pf := paramFacts{nonLeaking: map[*ssa.Function][]bool{}, flowsInto: map[*ssa.Function][][]int{}}
	a.params[mode] = pf // read by the walks below
	for _, fn := range funcs {
		if (fn.Parent() != nil && mode == strict) || len(fn.Blocks) == 0 {
			continue
		}
		if flags := escapableParams(fn); flags != nil {
			pf.nonLeaking[fn] = flags
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, flags := range pf.nonLeaking {
			for i, ok := range flags {
				if !ok {
					continue
				}
				esc, into := a.escapesInto(fn.Params[i], mode)
				if len(esc) > 0 {
					flags[i], changed = false, true
					continue
				}
				if len(into) > 0 {
					if pf.flowsInto[fn] == nil {
						pf.flowsInto[fn] = make([][]int, len(fn.Params))
					}
					// A set of parameters: a list with repeats would
					// grow with every round through recursive calls.
					params := make([]int, 0, len(into))
					for _, l := range into {
						params = append(params, l.param)
					}
					slices.Sort(params)
					pf.flowsInto[fn][i] = slices.Compact(params)
				}
			}
		}
	}
	return pf
}

// unsharedAtEntry flags, in mode, the parameters unshared at entry.
func (a *analyzer) unsharedAtEntry(funcs []*ssa.Function, mode escapeMode) map[*ssa.Function][]bool {
	return a.paramFixpoint(funcs,
		func(m map[*ssa.Function][]bool) { a.unsharedParams[mode] = m }, // read by unsharedArg
		func(cs callSite, i int) bool { return a.unsharedArg(cs, i, mode) })
}

// paramFixpoint flags the pointer parameters of the functions of funcs
// that the package only calls directly, for which holds is true at every
// call: a greatest fixpoint, assumptions dropped until none is
// contradicted. publish gets the flags before the first round, for holds
// to read (a parameter passed on to a callee's).
func (a *analyzer) paramFixpoint(funcs []*ssa.Function, publish func(map[*ssa.Function][]bool), holds func(cs callSite, i int) bool) map[*ssa.Function][]bool {
	flagged := map[*ssa.Function][]bool{}
	for _, fn := range funcs {
		if fn.Parent() != nil || len(fn.Blocks) == 0 || len(a.directCalls(fn)) == 0 {
			continue
		}
		if flags := pointerParams(fn); flags != nil {
			flagged[fn] = flags
		}
	}
	publish(flagged)
	for changed := true; changed; {
		changed = false
		for fn, flags := range flagged {
			for i, ok := range flags {
				if !ok {
					continue
				}
				for _, cs := range a.indexed().calls[fn] {
					if !holds(cs, i) {
						flags[i], changed = false, true
						break
					}
				}
			}
		}
	}
	return flagged
}

// escapableParams flags the parameters that can carry an object out of a
// call: pointers, and func values (a method value or closure holding it).
// It returns nil if fn has none.
func escapableParams(fn *ssa.Function) []bool {
	return paramFlags(fn, func(t types.Type) bool {
		switch t.Underlying().(type) {
		case *types.Pointer, *types.Signature:
			return true
		}
		return false
	})
}

// pointerParams flags fn's pointer parameters, or returns nil if it has
// none.
func pointerParams(fn *ssa.Function) []bool {
	return paramFlags(fn, func(t types.Type) bool {
		_, ok := t.Underlying().(*types.Pointer)
		return ok
	})
}

// paramFlags flags fn's parameters whose type is kept, or returns nil if
// none is.
func paramFlags(fn *ssa.Function, keep func(types.Type) bool) []bool {
	var flags []bool
	for i, p := range fn.Params {
		if keep(p.Type()) {
			if flags == nil {
				flags = make([]bool, len(fn.Params))
			}
			flags[i] = true
		}
	}
	return flags
}

// unsharedArg reports whether the i'th argument of a call site is an
// object no other goroutine can reach at the call, in mode. A go statement
// never passes one: the goroutine runs alongside its caller, which goes on
// using the object. A deferred call runs when the caller returns, after
// any of the caller's escapes.
func (a *analyzer) unsharedArg(cs callSite, i int, mode escapeMode) bool {
	instr := cs.instr
	if i >= len(cs.call.Args) {
		return false
	}
	escaped := func(obj ssa.Value) bool { return a.escapesBefore(obj, instr, instr, mode) }
	switch instr.(type) {
	case *ssa.Go:
		return false
	case *ssa.Defer:
		escaped = func(obj ssa.Value) bool {
			return slices.ContainsFunc(a.escapes(obj, mode), func(esc ssa.Instruction) bool { return esc != instr })
		}
	}
	arg := valueAt(cs.call.Args[i], instr)
	return a.privateObject(cs.fn, arg, mode) && !escaped(arg)
}

// valueAt returns, for a load of a local variable, the one value stored
// into the variable that can reach instruction at (a named result set to
// &fileStore{...} and read back as *fs: the early returns' stores of nil
// do not reach the calls after it), or v itself.
func valueAt(v ssa.Value, at ssa.Instruction) ssa.Value {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return v
	}
	cell, ok := u.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	if stored := cellValueAt(cell, at); stored != nil {
		return stored
	}
	return v
}

// cellValueAt returns the one value stored into the local variable cell
// that can reach instruction at, or nil.
func cellValueAt(cell *ssa.Alloc, at ssa.Instruction) ssa.Value {
	if !localCell(cell) {
		return nil
	}
	var stored ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell && Precedes(st, at) {
			if stored != nil {
				return nil
			}
			stored = st.Val
		}
	}
	return stored
}

// isCell reports whether alloc is a variable holding a pointer, not an
// object.
func isCell(alloc *ssa.Alloc) bool {
	return cellType(alloc.Type())
}

// localCell reports whether the variable cell is only stored to and read
// from, or captured by closures only ever called in place or that only read
// it: its value cannot change behind the function's back.
func localCell(cell *ssa.Alloc) bool {
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != cell {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			if !calledInPlace(r) && !onlyReads(r, cell) {
				return false
			}
		default:
			return false // its address taken
		}
	}
	return true
}

// onlyReads reports whether the closure mc only reads the variable cell it
// captures (a visitor that uses the object), never assigns it.
func onlyReads(mc *ssa.MakeClosure, cell *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if b != ssa.Value(cell) || i >= len(fn.FreeVars) {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			switch r := ref.(type) {
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false // assigned, or its address handed on
			}
		}
	}
	return true
}

func indexOf(params []*ssa.Parameter, p *ssa.Parameter) int {
	for i, q := range params {
		if q == p {
			return i
		}
	}
	return -1
}

// Precedes reports whether instruction x can run before instruction y in
// their function: earlier in y's block, or in a block from which y's block
// can be reached.
func Precedes(x, y ssa.Instruction) bool {
	bx, by := x.Block(), y.Block()
	if bx == nil || by == nil {
		return true
	}
	if bx == by {
		for _, instr := range bx.Instrs {
			if instr == x {
				return true
			}
			if instr == y {
				break
			}
		}
	}
	return reaches(bx.Succs, []*ssa.BasicBlock{by})
}

// freshResults flags the functions of funcs with one pointer result that is
// always an object they allocate, or the result of another such function:
// storing into what they return is storing into a new object.
func freshResults(funcs []*ssa.Function) map[*ssa.Function]bool {
	fresh := map[*ssa.Function]bool{}
	var cands []*ssa.Function
	for _, fn := range funcs {
		if res := fn.Signature.Results(); res.Len() == 1 && len(fn.Blocks) > 0 {
			if _, ok := res.At(0).Type().Underlying().(*types.Pointer); ok {
				cands = append(cands, fn)
			}
		}
	}
	isFresh := func(v ssa.Value) bool {
		switch v := v.(type) {
		case *ssa.Alloc:
			return v.Heap && !isCell(v)
		case *ssa.Call:
			callee := StaticCallee(v.Common())
			return callee != nil && fresh[callee]
		}
		return false
	}
	// A least fixpoint: a constructor is fresh once every return is.
	for changed := true; changed; {
		changed = false
		for _, fn := range cands {
			if fresh[fn] {
				continue
			}
			all, any := true, false
			for _, b := range fn.Blocks {
				if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
					any = true
					if !isFresh(ret.Results[0]) {
						all = false
					}
				}
			}
			if all && any {
				fresh[fn], changed = true, true
			}
		}
	}
	return fresh
}
