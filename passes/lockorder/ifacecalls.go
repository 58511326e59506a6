package lockorder

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// An interface call can run any of the program's implementations of the
// method. When one of them takes a lock of the class the caller holds
// (a cluster that asks its membership for the leader while holding its
// lock, where the only membership implementation calls back into the
// cluster), the call can deadlock. Which instance it locks is not known,
// so the finding is a note.
//
// When the dispatch is closed (summary.Dispatch: the field the interface
// value comes from only ever holds the package's own types, or only the
// module can implement the interface) and goes to the package's own
// types only, the call runs one of the known methods on the receiver: their locks are checked and their order edges
// recorded like a static call's, on the receiver (a client's lock, then
// its balancer wrapper's, where the wrapper calls back into the client
// under its own lock, closes a cycle). Open dispatch records no edge.

// interfaceTakes checks the locks the program's implementations of an
// interface method take against the locks held, and reports whether it
// reported a finding.
func (c *checker) interfaceTakes(f *summary.Func, common *ssa.CallCommon, pos token.Pos, held []lockstate.Held) bool {
	if !common.IsInvoke() {
		return false
	}
	if c.dispatchedTakes(f, common, pos, held) {
		return true
	}
	own := recvNamed(c.fn.Fn)
	for _, impl := range c.res.Implementations(common) {
		if own != nil && methodRecv(impl) == own {
			// A type that implements the interface by delegating to
			// its elements or an embedded value (a transport pausing
			// its peers, an applier wrapping the next one): the callee
			// is another value, or the call would recurse forever.
			continue
		}
		s := c.res.SummaryOfMethod(impl)
		if s == nil {
			continue
		}
		for _, t := range summary.Takes(s) {
			if t.Lock.Class == "" {
				continue
			}
			for _, h := range lockstate.WithoutClasses(held, t.Outside) {
				if h.Class != t.Lock.Class || h.Mode == lockstate.Read && t.Mode == lockstate.Read && c.readOnly[h.Class] {
					continue
				}
				name := c.lockName(h.ID, h.Pos)
				h.Name = name
				category, what := reentry(h.Mode, t.Mode)
				c.reportLevel(pos, category,
					fmt.Sprintf("%s %s%s, which the program implements with %s, while held (%s)",
						name, what, c.through(common.Method.Name()), c.methodName(impl), c.where(h)),
					h, confidence.Note, "the implementation locks another instance of the class, or this one")
				return true
			}
		}
	}
	return false
}

// dispatchedTakes checks the locks taken by the methods a closed interface
// call dispatches to, rebased on its receiver, as for a static call, and
// reports whether it reported a finding. Only a dispatch to the package's
// own types counts: a closed interface is resolved to every type of the
// imported packages that has its methods too (an io.PipeWriter for an
// unexported writer interface), and those are rarely what the call runs.
// A method of the caller's own type is left out, as in interfaceTakes: it
// delegates to another value.
func (c *checker) dispatchedTakes(f *summary.Func, common *ssa.CallCommon, pos token.Pos, held []lockstate.Held) bool {
	d := c.res.Dispatch(f.Flow, common)
	if d.Open != "" || len(d.Methods) == 0 {
		return false
	}
	for _, m := range d.Methods {
		if m.Pkg() != c.pass.Pkg {
			return false
		}
	}
	own := recvNamed(c.fn.Fn)
	iface := summary.IfaceMethodName(common.Value.Type(), common.Method, c.pass.Pkg)
	for _, m := range d.Methods {
		if own != nil && methodRecv(m) == own {
			continue
		}
		takes := c.res.InvokeEffects(f.Flow, common, m, summary.Takes)
		if len(takes) == 0 {
			continue
		}
		via := iface + " (dispatched to " + c.methodName(m) + ")"
		// The chain down to the acquisition starts in the method.
		c.call = nil
		if fn := c.res.Pkg.Prog.FuncValue(m); fn != nil && c.res.Func(fn) != nil {
			c.call = &ssa.CallCommon{Value: fn, Args: append([]ssa.Value{common.Value}, common.Args...)}
		}
		for _, t := range takes {
			c.root = common.Value
			if c.check(pos, via, t.Lock, t.Mode, lockstate.WithoutClasses(held, t.Outside)) {
				return true // one finding per call
			}
		}
	}
	c.call = nil
	return false
}

// methodName writes a method as (*T).M, qualified outside this package.
func (c *checker) methodName(m *types.Func) string {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return m.FullName()
	}
	return "(" + types.TypeString(sig.Recv().Type(), types.RelativeTo(c.pass.Pkg)) + ")." + m.Name()
}

// recvNamed returns the named receiver type of fn's method (of its
// enclosing method, for a closure), or nil.
func recvNamed(fn *ssa.Function) *types.TypeName {
	if obj, ok := summary.Outermost(fn).Object().(*types.Func); ok {
		return methodRecv(obj)
	}
	return nil
}

// methodRecv returns the named receiver type of method m, or nil.
func methodRecv(m *types.Func) *types.TypeName {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}
