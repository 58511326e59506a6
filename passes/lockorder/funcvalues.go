package lockorder

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A call of a func value runs one of the functions the package stores,
// passes or returns there (summary.FuncOrigin's targets): a hook field set
// to a method value (w.onEvent = c.processEvent), a closure kept in a
// table. Their locks are checked and their order edges recorded like a
// static call's. A lock a target takes through what the call passes is
// rebased onto the call's arguments, and one it reaches through a
// captured parameter of the package function that made and returned it
// (handleStarted := s.preStart()) onto that call's argument; one it
// reaches through its bound receiver or other captured variables is
// known here only by its class, so it is never the held lock itself, and
// its edges close cycles only between classes (notes).

// funcValueTakes checks the locks the known targets of a func value call
// take against the locks held, records their order edges, and reports
// whether it reported a finding.
func (c *checker) funcValueTakes(f *summary.Func, common *ssa.CallCommon, pos token.Pos, held []lockstate.Held) bool {
	if common.IsInvoke() || summary.StaticCallee(common) != nil {
		return false
	}
	if _, ok := common.Value.(*ssa.Builtin); ok || f.Flow.IsUnlocker(common.Value) {
		return false
	}
	o := c.res.FuncOrigin(f.Fn, common.Value)
	via := "func value " + summary.ValueName(common.Value)
	defer func() { c.call = nil }()
	for _, g := range append(o.Targets, o.Program...) {
		if cf := c.res.Func(g); cf != nil && cf.InPlace {
			continue // its body is checked where it runs
		}
		args := o.TargetArgs(g, common.Args)
		takes := c.res.TargetEffects(f.Flow, g, args, o.TargetBindings(g), summary.Takes)
		if len(takes) == 0 {
			continue
		}
		c.call = &ssa.CallCommon{Value: g, Args: args}
		name := via + " (" + summary.SSAFuncName(g, c.pass.Pkg) + ")"
		for _, t := range takes {
			if summary.ClassOnly(t.Lock) {
				t.Lock.Name = shortClass(t.Lock.Class)
			}
			c.nameByArg(f, common, &t.Lock)
			if c.check(pos, name, t.Lock, t.Mode, lockstate.WithoutClasses(held, t.Outside)) {
				return true // one finding per call
			}
		}
	}
	return false
}
