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
	atoms := branchAtoms(fn)
	if len(atoms) > 0 {
		g = &guards{at: make([][]lockstate.Cond, len(fn.Blocks))}
		for _, at := range atoms {
			for _, val := range []bool{false, true} {
				seen := reachableUnder(fn, at, val)
				for i, ok := range seen {
					if !ok {
						g.at[i] = append(g.at[i], lockstate.Cond{Param: at.param, Path: at.path, Nil: at.isNil, Value: !val})
					}
				}
			}
		}
	}
	a.guards[fn] = g
	return g
}

// reachableUnder returns which blocks of fn run when atom at has value val.
func reachableUnder(fn *ssa.Function, at atom, val bool) []bool {
	seen := make([]bool, len(fn.Blocks))
	if len(fn.Blocks) == 0 {
		return seen
	}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	seen[0] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		succs := b.Succs
		if ifi, ok := lastInstr(b).(*ssa.If); ok && len(succs) == 2 {
			if t, positive, ok := atomOf(fn, ifi.Cond); ok && t == at {
				if positive == val {
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
	return seen
}

// branchAtoms returns the atoms fn's If instructions test, leaving out a
// field fn assigns before one of its tests (its value changes between the
// entry and the test).
func branchAtoms(fn *ssa.Function) []atom {
	var out []atom
	storedIn := map[atom][]*ssa.BasicBlock{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if i, path, ok := paramPath(fn, st.Addr); ok && path != "" {
					for _, isNil := range []bool{false, true} {
						t := atom{param: i, path: path, isNil: isNil}
						storedIn[t] = append(storedIn[t], b)
					}
				}
			}
		}
	}
	tests := map[atom][]*ssa.BasicBlock{}
	for _, b := range fn.Blocks {
		ifi, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		t, _, ok := atomOf(fn, ifi.Cond)
		if !ok {
			continue
		}
		if _, seen := tests[t]; !seen && len(tests) >= maxAtoms {
			continue
		}
		if _, seen := tests[t]; !seen {
			out = append(out, t)
		}
		tests[t] = append(tests[t], b)
	}
	kept := out[:0]
	for _, t := range out {
		if !reaches(storedIn[t], tests[t]) {
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

// atomOf returns the atom a branch condition tests, and whether the
// condition is true when the atom is true (for a nil test: when the value
// is nil).
func atomOf(fn *ssa.Function, v ssa.Value) (atom, bool, bool) {
	positive := true
	for {
		u, ok := v.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		v, positive = u.X, !positive
	}
	if bin, ok := v.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		x := bin.X
		if IsNil(x) {
			x = bin.Y
		} else if !IsNil(bin.Y) {
			return atom{}, false, false
		}
		i, path, ok := paramValue(fn, x)
		if !ok {
			return atom{}, false, false
		}
		return atom{param: i, path: path, isNil: true}, positive == (bin.Op == token.EQL), true
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
func condsHold(fn *ssa.Function, when []lockstate.Cond, args, bindings []ssa.Value) (holds bool, out []lockstate.Cond, dropped bool) {
	for _, c := range when {
		arg := condArg(c, args, bindings)
		if arg == nil {
			dropped = true
			continue
		}
		if known, holds := evalCond(fn, c, arg); known {
			if !holds {
				return false, nil, false
			}
			continue
		}
		if i, path, ok := paramValue(fn, arg); ok && (path == "" || c.Path == "") {
			out = append(out, lockstate.Cond{Param: i, Path: path + c.Path, Nil: c.Nil, Value: c.Value})
		} else {
			dropped = true
		}
	}
	return true, out, dropped
}

// condArg returns the value a condition tests at a call: an argument, or
// the value bound to a closure's captured variable; nil when unknown.
func condArg(c lockstate.Cond, args, bindings []ssa.Value) ssa.Value {
	if c.Param < 0 {
		i := -1 - c.Param
		if i >= len(bindings) {
			return nil
		}
		if cell, ok := bindings[i].(*ssa.Alloc); ok {
			// Captured by reference: the value the cell holds, if
			// it is stored once.
			if v := lockstate.CellValue(cell); v != nil {
				return v
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

// evalCond decides c for the argument arg of a call in fn, if it can.
func evalCond(fn *ssa.Function, c lockstate.Cond, arg ssa.Value) (known, holds bool) {
	arg = stripConv(arg)
	if c.Path == "" {
		if k, ok := arg.(*ssa.Const); ok {
			if c.Nil {
				return true, k.IsNil() == c.Value
			}
			if k.Value == nil {
				return false, false
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
	// A field of an object allocated in fn and never assigned there: its
	// zero value (false, nil).
	alloc, ok := arg.(*ssa.Alloc)
	if !ok || alloc.Parent() != fn {
		return false, false
	}
	name := c.Path[1:]
	if i := indexByte(name, '.'); i >= 0 {
		return false, false // deeper paths are not followed
	}
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			if st, isStore := ref.(*ssa.Store); isStore && st.Addr == alloc {
				return false, false // the whole object assigned
			}
			continue
		}
		if f := structField(fa.X.Type(), fa.Field); f == nil || f.Name() != name {
			continue
		}
		for _, r := range *fa.Referrers() {
			if _, isStore := r.(*ssa.Store); isStore {
				return false, false
			}
		}
	}
	if c.Nil {
		return true, c.Value // the zero value is nil
	}
	return true, !c.Value // the zero value is false
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
