package lockorder

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// An interface call can run any of the program's implementations of the
// method. When one of them takes a lock of the class the caller holds
// (a cluster that asks its membership for the leader while holding its
// lock, where the only membership implementation calls back into the
// cluster), the call can deadlock. Which instance it locks is not known,
// so the finding is a note.

// interfaceTakes checks the locks the program's implementations of an
// interface method take against the locks held, and reports whether it
// reported a finding.
func (c *checker) interfaceTakes(common *ssa.CallCommon, pos token.Pos, held []lockstate.Held) bool {
	if !common.IsInvoke() {
		return false
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
		for _, t := range s.Takes {
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
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if obj, ok := fn.Object().(*types.Func); ok {
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
