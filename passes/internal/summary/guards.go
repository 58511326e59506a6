package summary

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// maxAtoms bounds the parameter tests considered per function.
const maxAtoms = 8

// An atom is a test of a parameter that branches can depend on: a bool
// parameter (flush, hasLock), a bool field of a parameter (c.started), or
// a parameter (or field) compared with nil.
type atom struct {
	param int
	path  string
	isNil bool
	// cmp, when not ILLEGAL, makes the atom a comparison of an integer
	// parameter (or field) with the constant k: "x cmp k".
	cmp token.Token
	k   int64
	// opt, when set, makes the atom a test of whether the options
	// parameter param sets the option flag opt (optionflags.go), which
	// the constructors setters make options for.
	opt, setters string
}

// place is what an atom tests: a parameter, or a field path below one.
type place struct {
	param int
	path  string
}

// guards holds, for each basic block of a function, the conditions on the
// function's parameters that must hold for the block to run at all.
type guards struct {
	at [][]lockstate.Cond
}

// when returns the conditions under which instructions of block b run.
func (g *guards) when(b *ssa.BasicBlock) []lockstate.Cond {
	if g == nil || b == nil || b.Index >= len(g.at) {
		return nil
	}
	return g.at[b.Index]
}

// guardsOf computes the guards of fn: for each atom that fn's branches test
// and each of its two values, the blocks reachable from the entry when
// branches that contradict the value are not taken. A block unreachable
// under one value runs only under the other. The cost is the number of
// atoms (at most maxAtoms) times two walks of the control-flow graph.
func (a *analyzer) guardsOf(fn *ssa.Function) *guards {
	if g, ok := a.guards[fn]; ok {
		return g
	}
	var g *guards
	opts := a.optionAtoms(fn)
	atoms := branchAtoms(fn, opts)
	if len(atoms) > 0 {
		g = &guards{at: make([][]lockstate.Cond, len(fn.Blocks))}
		for _, at := range atoms {
			for _, val := range []bool{false, true} {
				seen := reachableUnder(fn, opts, at, val)
				for i, ok := range seen {
					if ok {
						continue
					}
					c := lockstate.Cond{Param: at.param, Path: at.path, Nil: at.isNil, Cmp: at.cmp, K: at.k, Value: !val}
					if at.opt != "" {
						c = optionCond(at, !val)
					}
					g.at[i] = append(g.at[i], c)
				}
			}
		}
	}
	a.guards[fn] = g
	return g
}

// reachableUnder returns which blocks of fn run when atom at has value val.
// A range over a map that is nil under the atom runs no iteration (var
// calls map[int]*req; if err != nil { calls = c.calls }; for _, r := range
// calls { ... }): where the first walk meets such a loop, a second walk
// judges the map by the φ edges from the blocks the first found
// reachable. The second walk can only remove blocks.
func reachableUnder(fn *ssa.Function, opts map[ssa.Value]atom, at atom, val bool) []bool {
	seen, ranges := walkUnder(fn, opts, at, val, nil)
	if ranges {
		seen, _ = walkUnder(fn, opts, at, val, seen)
	}
	return seen
}

// walkUnder is one walk of reachableUnder; with prev, the blocks an
// earlier walk found reachable, a range over a map nil under the atom is
// known to end at once. ranges reports that the walk met a range loop it
// could not decide.
func walkUnder(fn *ssa.Function, opts map[ssa.Value]atom, at atom, val bool, prev []bool) (seen []bool, ranges bool) {
	seen = make([]bool, len(fn.Blocks))
	if len(fn.Blocks) == 0 {
		return seen, false
	}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	seen[0] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		succs := b.Succs
		if ifi, ok := lastInstr(b).(*ssa.If); ok && len(succs) == 2 {
			known, cond := evalUnder(fn, opts, ifi.Cond, at, val, 0)
			if !known {
				if m := rangeOk(ifi.Cond); m != nil {
					if prev == nil {
						ranges = true
					} else if nilUnder(m, prev, 0) {
						known, cond = true, false
					}
				}
			}
			if known {
				if cond {
					succs = succs[:1]
				} else {
					succs = succs[1:]
				}
			}
		}
		for i, s := range succs {
			if len(succs) == len(b.Succs) && lockstate.DeadEdge(b, i) {
				continue
			}
			if !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return seen, ranges
}

// rangeOk returns the map ranged over when cond is the "ok" of a range
// loop's next step over a map, or nil.
func rangeOk(cond ssa.Value) ssa.Value {
	ex, ok := cond.(*ssa.Extract)
	if !ok {
		return nil
	}
	return rangedMap(ex, 0)
}

// rangedMap returns the map that ex reads out of a range loop's next step
// over it when ex is that step's i'th part (0: ok, 1: key, 2: value), or
// nil.
func rangedMap(ex *ssa.Extract, i int) ssa.Value {
	next, ok := ex.Tuple.(*ssa.Next)
	if !ok || ex.Index != i || next.IsString {
		return nil
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return nil
	}
	return rng.X
}

// nilUnder reports whether v is nil on every way into it from the blocks
// reachable holds: the nil constant, or a φ of such values over its edges
// from reachable blocks.
func nilUnder(v ssa.Value, reachable []bool, depth int) bool {
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.Phi:
		if depth > maxCondDepth {
			return false
		}
		for i, e := range x.Edges {
			if p := x.Block().Preds[i]; p.Index < len(reachable) && !reachable[p.Index] {
				continue
			}
			if !nilUnder(e, reachable, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// branchAtoms returns the atoms fn's If instructions test, leaving out a
// field fn assigns before one of its tests (its value changes between the
// entry and the test); opts gives the loads of option flags.
func branchAtoms(fn *ssa.Function, opts map[ssa.Value]atom) []atom {
	var out []atom
	storedIn := map[place][]*ssa.BasicBlock{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if i, path, ok := paramPath(fn, st.Addr); ok && path != "" {
					pl := place{i, path}
					storedIn[pl] = append(storedIn[pl], b)
				}
			}
		}
	}
	tests := map[atom][]*ssa.BasicBlock{}
	visited := map[ssa.Value]int{}
	for _, b := range fn.Blocks {
		ifi, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		clear(visited)
		for _, t := range condAtoms(fn, opts, ifi.Cond, nil, 0, visited) {
			if _, seen := tests[t]; !seen && len(tests) >= maxAtoms {
				continue
			}
			if _, seen := tests[t]; !seen {
				out = append(out, t)
			}
			tests[t] = append(tests[t], b)
		}
	}
	kept := out[:0]
	for _, t := range out {
		if !reaches(storedIn[place{t.param, t.path}], tests[t]) {
			kept = append(kept, t)
		}
	}
	return kept
}

// reaches reports whether a block of from can reach a block of to (a block
// reaches itself: a store precedes its block's final If).
func reaches(from, to []*ssa.BasicBlock) bool {
	if len(from) == 0 {
		return false
	}
	target := map[*ssa.BasicBlock]bool{}
	for _, b := range to {
		target[b] = true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if target[b] {
			return true
		}
		work = append(work, b.Succs...)
	}
	return false
}

// maxCondDepth bounds how far a branch condition is taken apart.
const maxCondDepth = 6

// condAtoms returns the atoms a branch condition depends on: the condition
// itself, or the values a phi joins (ackInPlace := o.node == nil &&
// needLock is a phi of false and needLock), or what it negates.
//
// visited records the smallest depth at which each value was taken apart:
// a value met again no shallower adds only atoms already in out, so it is
// skipped. Without it, phis of phis (a long chain of && and || in a test
// function) are walked once per path, exponentially many times, up to
// maxCondDepth; the atoms and the order of their first appearance are the
// same either way.
func condAtoms(fn *ssa.Function, opts map[ssa.Value]atom, v ssa.Value, out []atom, depth int, visited map[ssa.Value]int) []atom {
	if depth > maxCondDepth {
		return out
	}
	if d, ok := visited[v]; ok && d <= depth {
		return out
	}
	visited[v] = depth
	if t, _, ok := atomOf(fn, opts, v); ok {
		return append(out, t)
	}
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			out = condAtoms(fn, opts, e, out, depth+1, visited)
		}
	case *ssa.UnOp:
		if x.Op == token.NOT {
			out = condAtoms(fn, opts, x.X, out, depth+1, visited)
		} else if val := frozenLoad(x); val != nil {
			out = condAtoms(fn, opts, val, out, depth+1, visited)
		}
	}
	return out
}

// evalUnder evaluates the boolean v of fn assuming atom at has value val:
// the atom itself, constants, negations, and phis whose every value is
// known and the same.
func evalUnder(fn *ssa.Function, opts map[ssa.Value]atom, v ssa.Value, at atom, val bool, depth int) (known, b bool) {
	if depth > maxCondDepth {
		return false, false
	}
	if t, positive, ok := atomOf(fn, opts, v); ok {
		return t == at, positive == val
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.Bool {
			return true, constant.BoolVal(x.Value)
		}
	case *ssa.UnOp:
		if x.Op == token.NOT {
			known, b := evalUnder(fn, opts, x.X, at, val, depth+1)
			return known, !b
		}
		if v := frozenLoad(x); v != nil {
			return evalUnder(fn, opts, v, at, val, depth+1)
		}
	case *ssa.Phi:
		for i, e := range x.Edges {
			k, eb := evalUnder(fn, opts, e, at, val, depth+1)
			if !k || i > 0 && eb != b {
				return false, false
			}
			b = eb
		}
		return len(x.Edges) > 0, b
	}
	return false, false
}

// nilTest reports whether v compares a value with nil (x == nil, x !=
// nil, nil on either side), and returns the value and whether the test
// is ==.
func nilTest(v ssa.Value) (x ssa.Value, eq, ok bool) {
	bin, ok := v.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return nil, false, false
	}
	switch {
	case IsNil(bin.Y):
		x = bin.X
	case IsNil(bin.X):
		x = bin.Y
	default:
		return nil, false, false
	}
	return x, bin.Op == token.EQL, true
}

// atomOf returns the atom a branch condition tests, and whether the
// condition is true when the atom is true (for a nil test: when the value
// is nil; for an option flag, opts' atoms: when it is set).
func atomOf(fn *ssa.Function, opts map[ssa.Value]atom, v ssa.Value) (atom, bool, bool) {
	positive := true
	for {
		u, ok := v.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		v, positive = u.X, !positive
	}
	if t, ok := opts[v]; ok {
		return t, positive, true // a bool flag: set is true
	}
	if x, eq, ok := nilTest(v); ok {
		if t, ok := opts[x]; ok {
			return t, positive != eq, true // set is non-nil
		}
		i, path, ok := paramValue(fn, x)
		if !ok {
			return atom{}, false, false
		}
		return atom{param: i, path: path, isNil: true}, positive == eq, true
	}
	if bin, ok := v.(*ssa.BinOp); ok {
		if t, ok := cmpAtom(fn, bin); ok {
			return t, positive, true
		}
		return atom{}, false, false
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return atom{}, false, false
	}
	i, path, ok := paramValue(fn, v)
	if !ok {
		return atom{}, false, false
	}
	return atom{param: i, path: path}, positive, true
}

// cmpAtom recognises a comparison of an integer parameter (or field) with a
// constant: "c.responses > 0", "0 == n".
func cmpAtom(fn *ssa.Function, bin *ssa.BinOp) (atom, bool) {
	x, op, n, ok := constCompare(bin)
	if !ok {
		return atom{}, false
	}
	if b, ok := x.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return atom{}, false
	}
	i, path, ok := paramValue(fn, x)
	if !ok {
		return atom{}, false
	}
	return atom{param: i, path: path, cmp: op, k: n}, true
}

// constCompare reads bin as "x op n", a comparison of a value with an
// integer constant, whichever side the constant is on (0 < n is n > 0).
func constCompare(bin *ssa.BinOp) (x ssa.Value, op token.Token, n int64, ok bool) {
	op, x, k := bin.Op, bin.X, bin.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, k = k, x
		switch op { // k op x is x op' k
		case token.LSS:
			op = token.GTR
		case token.GTR:
			op = token.LSS
		case token.LEQ:
			op = token.GEQ
		case token.GEQ:
			op = token.LEQ
		}
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return nil, op, 0, false
	}
	n, ok = intConst(k)
	return x, op, n, ok
}

// paramValue reports whether v is a parameter of fn (or a captured
// variable of a closure, numbered -1, -2, ...) or a field loaded from one
// (c.started, c.opts.sync), and which.
func paramValue(fn *ssa.Function, v ssa.Value) (int, string, bool) {
	switch p := v.(type) {
	case *ssa.Parameter:
		for i, q := range fn.Params {
			if q == p {
				return i, "", true
			}
		}
		return 0, "", false
	case *ssa.FreeVar:
		// A closure's captured variable (captured by value: never
		// assigned): its parent binds it at the MakeClosure.
		for i, q := range fn.FreeVars {
			if q == p {
				return -1 - i, "", true
			}
		}
		return 0, "", false
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		switch x := u.X.(type) {
		case *ssa.Alloc:
			// A parameter captured by a closure lives in a cell.
			if p := lockstate.CellValue(x); p != nil {
				return paramValue(fn, p)
			}
			return 0, "", false
		case *ssa.FreeVar:
			// A variable a closure captured by reference: its cell.
			return paramValue(fn, x)
		}
		return paramPath(fn, u.X)
	}
	return 0, "", false
}

// paramPath reports whether addr is the address of a field below a
// parameter of fn, and returns the parameter and the field path.
func paramPath(fn *ssa.Function, addr ssa.Value) (int, string, bool) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return 0, "", false
	}
	f := structField(fa.X.Type(), fa.Field)
	if f == nil {
		return 0, "", false
	}
	i, path, ok := paramValue(fn, fa.X)
	if inner, nested := fa.X.(*ssa.FieldAddr); !ok && nested {
		// A field of a struct held by value in another field
		// (c.opts.private.flag).
		i, path, ok = paramPath(fn, inner)
	}
	if !ok || len(path) > 64 {
		return 0, "", false
	}
	return i, path + "." + f.Name(), true
}

// condsHold evaluates the conditions of a callee's reason (or take) at a
// call in fn with the given arguments (the callee's parameters in order).
// It returns false when one of them cannot hold there: the argument is a
// constant that contradicts it, or an object allocated in fn whose field is
// still zero. The conditions it cannot decide are returned translated onto
// fn's parameters where the argument is one, and dropped otherwise
// (dropped reports that some were).
//
// A condition on a closure's captured variable (Param < 0, see
// lockstate.Cond) is evaluated on the value bound to it, in bindings.
func condsHold(fn *ssa.Function, at judged, when []lockstate.Cond, args, bindings []ssa.Value) (holds bool, out []lockstate.Cond, dropped bool) {
	for _, c := range when {
		arg := condArg(fn, at, c, args, bindings)
		if arg == nil {
			dropped = true
			continue
		}
		if c.Opt != "" {
			switch known, holds, p := optionsSet(fn, c, arg); {
			case known && !holds:
				return false, nil, false
			case known:
			case p >= 0:
				c.Param = p
				out = append(out, c)
			default:
				dropped = true
			}
			continue
		}
		if known, holds := evalCond(fn, at, c, arg); known {
			if !holds {
				return false, nil, false
			}
			continue
		}
		if i, path, ok := paramValue(fn, arg); ok && (path == "" || c.Path == "") {
			c.Param, c.Path = i, path+c.Path
			out = append(out, c)
		} else {
			dropped = true
		}
	}
	return true, out, dropped
}

// condArg returns the value a condition tests at a call in fn: an
// argument, or the value bound to a closure's captured variable; nil when
// unknown.
func condArg(fn *ssa.Function, at judged, c lockstate.Cond, args, bindings []ssa.Value) ssa.Value {
	if c.Param < 0 {
		i := -1 - c.Param
		if i >= len(bindings) {
			return nil
		}
		if cell, ok := bindings[i].(*ssa.Alloc); ok {
			// Captured by reference: the value the cell holds, if
			// it is stored once, or, for a deferred call, the one
			// value it holds at every return the call runs at.
			if v := lockstate.CellValue(cell); v != nil {
				return v
			}
			if c.Path != "" {
				// A field is tested only once the variable holds
				// its one value: before, it is nil, and the load
				// would crash.
				if v := frozenCell(cell); v != nil {
					return v
				}
			}
			if d := at.exits.deferAt(fn, at.call); d != nil && c.Path == "" {
				if k := at.exits.value(d, cell); k != nil {
					return k
				}
			}
			return nil
		}
		return bindings[i]
	}
	if c.Param < len(args) {
		return args[c.Param]
	}
	return nil
}

// evalCond decides c for the argument arg of the judged call, a call in
// fn, if it can.
func evalCond(fn *ssa.Function, at judged, c lockstate.Cond, arg ssa.Value) (known, holds bool) {
	arg = stripConv(arg)
	if c.Path == "" {
		if k, ok := arg.(*ssa.Const); ok {
			switch {
			case c.Nil:
				return true, k.IsNil() == c.Value
			case k.Value == nil:
				return false, false
			case c.Cmp != token.ILLEGAL:
				if k.Value.Kind() != constant.Int {
					return false, false
				}
				n, exact := constant.Int64Val(k.Value)
				return exact, compare(n, c.Cmp, c.K) == c.Value
			}
			return true, constantBool(k) == c.Value
		}
		if c.Nil {
			switch arg.(type) {
			case *ssa.Alloc, *ssa.MakeClosure, *ssa.Function, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeInterface:
				return true, !c.Value
			}
		}
		return false, false
	}
	if fa, ok := arg.(*ssa.FieldAddr); ok && at.writers != nil && indexByte(c.Path[1:], '.') < 0 {
		// A struct held by value in a field, whose field nothing in
		// the package writes there (embeddedfields.go).
		outer, inner := FieldVar(fa), fieldNamed(fa.Type(), c.Path[1:])
		if outer != nil && inner != nil && at.writers.zeroVia(outer, inner) {
			return true, zeroHolds(c)
		}
		return false, false
	}
	// A field of an object allocated in fn, or returned fresh by a call
	// of fn, and never assigned there: its zero value (false, nil).
	name := c.Path[1:]
	if i := indexByte(name, '.'); i >= 0 {
		return false, false // deeper paths are not followed
	}
	if unless, ok := objectZero(fn, at, arg, name, at.call != nil); ok && len(unless) == 0 {
		return true, zeroHolds(c)
	}
	return false, false
}

// zeroHolds evaluates c, a condition on a field, on the field's zero
// value (nil, 0 or false).
func zeroHolds(c lockstate.Cond) bool {
	switch {
	case c.Nil:
		return c.Value
	case c.Cmp != token.ILLEGAL:
		return compare(0, c.Cmp, c.K) == c.Value
	}
	return !c.Value
}

// literalTemp returns the local variable of fn that v loads, when v is the
// load of a variable fn allocates on its stack: the temporary a composite
// literal is built in before it is copied to its destination.
func literalTemp(fn *ssa.Function, v ssa.Value) *ssa.Alloc {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	tmp, ok := ld.X.(*ssa.Alloc)
	if !ok || tmp.Heap || tmp.Parent() != fn {
		return nil
	}
	return tmp
}

// compare evaluates "x op k".
func compare(x int64, op token.Token, k int64) bool {
	switch op {
	case token.EQL:
		return x == k
	case token.NEQ:
		return x != k
	case token.LSS:
		return x < k
	case token.LEQ:
		return x <= k
	case token.GTR:
		return x > k
	case token.GEQ:
		return x >= k
	}
	return false
}

// frozenLoad returns, for a load of a variable that closures capture (a
// flag such as ackInPlace that a callback reads), the one value the
// variable is ever set to, or nil.
func frozenLoad(load *ssa.UnOp) ssa.Value {
	if load.Op != token.MUL {
		return nil
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	return frozenCell(cell)
}

// frozenCell returns the one value the variable cell is ever set to: it is
// stored once, its address goes nowhere, and the closures that capture it
// only read it. Otherwise nil.
func frozenCell(cell *ssa.Alloc) ssa.Value {
	val := lockstate.SetOnce(cell)
	if val == nil {
		return nil
	}
	for _, ref := range *cell.Referrers() {
		if mc, ok := ref.(*ssa.MakeClosure); ok && !onlyReads(mc, cell) {
			return nil
		}
	}
	return val
}

// storedOnce returns the value stored into the variable cell when it is
// stored exactly once in its function, or nil.
func storedOnce(cell *ssa.Alloc) ssa.Value {
	var stored ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			if stored != nil {
				return nil
			}
			stored = st.Val
		}
	}
	return stored
}

func stripConv(v ssa.Value) ssa.Value {
	for {
		x, ok := v.(*ssa.ChangeType)
		if !ok {
			return v
		}
		v = x.X
	}
}

func constantBool(k *ssa.Const) bool {
	return k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
