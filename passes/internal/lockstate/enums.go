package lockstate

import (
	"go/constant"
	"go/token"
	"go/types"
	"runtime"
	"sync"
	"weak"

	"golang.org/x/tools/go/ssa"
)

// This file decides the default of a switch over an enum. A switch on a
// value of an unexported named type, whose cases name every constant the
// package declares of that type, cannot reach its default (nor fall out
// of the switch), unless the package converts some other value to the
// type, which lockaudit does not see from a single branch. Code outside
// the package cannot name the type to convert to it:
//
//	type readType int
//	const (
//		readFromMemory readType = iota
//		readFromStore
//		readMemoryThenStore
//	)
//
//	switch t {
//	case readFromMemory, readMemoryThenStore: ...
//	case readFromStore: ...
//	default: // not reached
//	}
//
// A switch compiles to a chain of comparisons of one value, each block
// reached by the false edge of the one before.

// exhaustedEnum reports whether the false edge of b's branch leaves a
// chain of comparisons x == C that, with it, matches every constant of
// x's type.
func exhaustedEnum(b *ssa.BasicBlock) bool {
	x, c, ok := enumTest(b)
	if !ok {
		return false
	}
	all := enumConsts(c.Type())
	if len(all) == 0 || len(all) > maxEnumValues {
		return false
	}
	seen := map[string]bool{c.Value.ExactString(): true}
	for cur := b; len(seen) < len(all)+1; {
		if len(cur.Preds) != 1 {
			break
		}
		p := cur.Preds[0]
		if len(p.Succs) != 2 || p.Succs[1] != cur || p.Succs[0] == cur {
			break
		}
		px, pc, ok := enumTest(p)
		if !ok || px != x {
			break
		}
		seen[pc.Value.ExactString()] = true
		cur = p
	}
	for _, v := range all {
		if !seen[v] {
			return false
		}
	}
	return true
}

// maxEnumValues bounds the enums whose switches are decided, and so the
// walk up a chain from each branch: the analysis stays linear in the size
// of the function.
const maxEnumValues = 64

// enumTest returns x and C when b ends in a branch on x == C, C a
// constant of an unexported named type.
func enumTest(b *ssa.BasicBlock) (ssa.Value, *ssa.Const, bool) {
	ifi, ok := lastInstr(b).(*ssa.If)
	if !ok {
		return nil, nil, false
	}
	eq, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || eq.Op != token.EQL {
		return nil, nil, false
	}
	x, y := eq.X, eq.Y
	c, ok := y.(*ssa.Const)
	if !ok {
		x, y = y, x
		if c, ok = y.(*ssa.Const); !ok {
			return nil, nil, false
		}
	}
	if _, isConst := x.(*ssa.Const); isConst || c.Value == nil {
		return nil, nil, false
	}
	n, ok := types.Unalias(c.Type()).(*types.Named)
	if !ok || n.Obj().Exported() || n.Obj().Pkg() == nil || n.Obj().Parent() != n.Obj().Pkg().Scope() {
		return nil, nil, false
	}
	return x, c, true
}

// enumValues caches enumConsts by type. Its keys are weak, and an entry
// goes when its type does: a driver that analyses many packages in one
// process (the in-process driver, golangci-lint) must not keep every
// package's types alive through this cache.
var enumValues sync.Map // weak.Pointer[types.TypeName] -> []string

// enumConsts returns the values of the constants of type t (a named
// type) that its package declares at package level, as exact strings.
func enumConsts(t types.Type) []string {
	n := types.Unalias(t).(*types.Named)
	obj := n.Obj()
	key := weak.Make(obj)
	if v, ok := enumValues.Load(key); ok {
		return v.([]string)
	}
	var out []string
	seen := map[string]bool{}
	scope := obj.Pkg().Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(c.Type(), n) {
			continue
		}
		if v := c.Val(); v.Kind() != constant.Unknown && !seen[v.ExactString()] {
			seen[v.ExactString()] = true
			out = append(out, v.ExactString())
		}
	}
	if _, loaded := enumValues.LoadOrStore(key, out); !loaded {
		runtime.AddCleanup(obj, func(k weak.Pointer[types.TypeName]) { enumValues.Delete(k) }, key)
	}
	return out
}
