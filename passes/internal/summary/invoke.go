package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// InvokeEffects returns the given effects (chosen by pick) of m, a
// concrete method an interface method call c dispatches to, rebased onto
// the call's receiver and arguments as for a static call of m: the
// receiver is m's parameter 0. A lock of the receiver keeps the full
// class m names it by: below an interface, the path from the caller's
// object ends at the dynamic value, another object.
func (r *Result) InvokeEffects(flow *lockstate.Result, c *ssa.CallCommon, m *types.Func, pick func(*Summary) []lockstate.Effect) []lockstate.Effect {
	if !c.IsInvoke() {
		return nil
	}
	s := r.SummaryOfMethod(m)
	if s == nil {
		return nil
	}
	args := append([]ssa.Value{c.Value}, c.Args...)
	var out []lockstate.Effect
	for _, e := range pick(s) {
		re, ok := effectAt(flow, e, args, nil)
		if !ok {
			continue
		}
		if e.Lock.Root == lockstate.RootParam && e.Lock.RootIndex == 0 && e.Lock.Full != "" {
			re.Lock.Full = e.Lock.Full
		}
		out = append(out, re)
	}
	return out
}
