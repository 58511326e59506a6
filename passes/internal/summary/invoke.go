package summary

import (
	"go/types"
	"strings"

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

// TargetEffects returns the given effects (chosen by pick) of g, one of
// the functions a func value called in flow's function can hold, rebased
// onto args, the values the call passes to g's parameters in order (nil
// where the call does not pass one, such as a method value's bound
// receiver) and bindings, a closure's captured values in the caller's
// frame (Origin.TargetBindings; nil where unknown). A lock g reaches
// through values the call does not pass (that receiver, a closure's
// other captured variables) is known only by its class:
// its identity names no instance of the caller's (see ClassOnly), so it
// never matches a held lock as the same one.
func (r *Result) TargetEffects(flow *lockstate.Result, g *ssa.Function, args, bindings []ssa.Value, pick func(*Summary) []lockstate.Effect) []lockstate.Effect {
	s := r.SummaryOf(g)
	if s == nil {
		return nil
	}
	var out []lockstate.Effect
	for _, e := range pick(s) {
		if re, ok := effectAt(flow, e, args, bindings); ok {
			out = append(out, re)
			continue
		}
		if e.Lock.Class == "" {
			continue
		}
		if holds, _, _ := condsHold(flow.Fn, judged{}, e.When, args, bindings); !holds {
			continue
		}
		full := e.Lock.Full
		if full == "" {
			full = e.Lock.Class
		}
		e.Lock = lockstate.ID{Key: classOnlyKey + e.Lock.Class, Class: e.Lock.Class, Name: e.Lock.Class, Full: full, Root: lockstate.RootValue}
		e.When = nil
		out = append(out, e)
	}
	return out
}

// classOnlyKey prefixes the key of a lock known only by its class.
const classOnlyKey = "class:"

// ClassOnly reports whether id, from TargetEffects, is a lock known only
// by its class.
func ClassOnly(id lockstate.ID) bool { return strings.HasPrefix(id.Key, classOnlyKey) }
