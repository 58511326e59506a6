package summary

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// LookupArg returns the index of the argument of call whose container
// field the callee, a function of pkg, returns an element of (or nil) on
// every path: a lookup helper (g.node(name) returning g.nodes[name]).
func LookupArg(pkg *ssa.Package, call *ssa.Call) (int, bool) {
	g := call.Call.StaticCallee()
	if g == nil {
		return 0, false
	}
	if o := g.Origin(); o != nil {
		g = o
	}
	if g.Pkg != pkg || len(g.Blocks) == 0 {
		return 0, false
	}
	param := -1
	for _, b := range g.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return 0, false
		}
		if k, ok := ret.Results[0].(*ssa.Const); ok && k.IsNil() {
			continue
		}
		i := containerParam(g, ret.Results[0])
		if i < 0 || param >= 0 && i != param {
			return 0, false
		}
		param = i
	}
	if param < 0 || param >= len(call.Call.Args) {
		return 0, false
	}
	return param, true
}

// containerParam returns the index of the parameter of g whose container
// field v is an element of (p.nodes[k], a comma-ok lookup's value, an
// element of a slice field), or -1.
func containerParam(g *ssa.Function, v ssa.Value) int {
	var container ssa.Value
	switch x := v.(type) {
	case *ssa.Lookup:
		container = x.X
	case *ssa.Index:
		container = x.X
	case *ssa.Extract:
		if l, ok := x.Tuple.(*ssa.Lookup); ok && x.Index == 0 {
			container = l.X
		}
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			container = ia.X
		}
	}
	if u, ok := container.(*ssa.UnOp); ok && u.Op == token.MUL {
		container = u.X
	}
	fa, ok := container.(*ssa.FieldAddr)
	if !ok {
		return -1
	}
	p, ok := fa.X.(*ssa.Parameter)
	if !ok {
		return -1
	}
	return slices.Index(g.Params, p)
}
