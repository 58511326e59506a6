package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// implementations returns the package's concrete methods that an interface
// call of an unexported method can dispatch to. Only types of the package can
// implement an unexported method, so the set is complete; for exported
// methods it returns nil (the callee is unknown).
func (a *analyzer) implementations(c *ssa.CallCommon) []*ssa.Function {
	m := c.Method
	if m == nil || m.Exported() || m.Pkg() != a.pkg.Pkg {
		return nil
	}
	iface, _ := c.Value.Type().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	if impls, ok := a.impls[m]; ok {
		return impls
	}
	var out []*ssa.Function
	for _, name := range a.typeNames {
		t := a.pkg.Members[name].(*ssa.Type).Type()
		if n, ok := t.(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue
		}
		if types.IsInterface(t) {
			continue
		}
		for _, recv := range []types.Type{t, types.NewPointer(t)} {
			if !types.Implements(recv, iface) {
				continue
			}
			sel := a.pkg.Prog.MethodSets.MethodSet(recv).Lookup(m.Pkg(), m.Name())
			if sel == nil {
				continue
			}
			if fn := a.pkg.Prog.MethodValue(sel); fn != nil {
				out = append(out, fn)
			}
			break
		}
	}
	a.impls[m] = out
	return out
}
