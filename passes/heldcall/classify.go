package heldcall

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// classify decides whether instr, executed while the locks held are held, is
// a finding, and of which category.
func (c *checker) classify(f *summary.Func, instr ssa.Instruction, held []lockstate.Held) *finding {
	switch instr := instr.(type) {
	case *ssa.Send:
		if c.res.BufferedSend(f.Flow, instr.Chan) {
			return nil
		}
		return &finding{category: "chan", what: "channel send", held: held}
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			return &finding{category: "chan", what: "channel receive", held: held}
		}
	case *ssa.Select:
		if instr.Blocking {
			return &finding{category: "select", what: "blocking select", held: held}
		}
	case *ssa.Call:
		return c.classifyCall(f, instr.Common(), held)
	case *ssa.Defer:
		// A deferred call runs at return, before the releases deferred
		// ahead of it: mu.Lock(); defer mu.Unlock(); defer hook().
		var deferred []lockstate.Held
		for _, h := range held {
			if h.Deferred {
				deferred = append(deferred, h)
			}
		}
		if len(deferred) == 0 {
			return nil
		}
		fd := c.classifyCall(f, instr.Common(), deferred)
		if fd != nil {
			fd.what = "deferred " + fd.what
		}
		return fd
	}
	return nil
}

func (c *checker) classifyCall(f *summary.Func, call *ssa.CallCommon, held []lockstate.Held) *finding {
	op := lockstate.OpOf(call)
	switch op.Kind {
	case lockstate.Acquire, lockstate.Release, lockstate.TryAcq:
		return nil // nested locking is lockorder's and shardlock's business
	case lockstate.CondWait:
		// Wait releases the Cond's L: only other locks stay held.
		l := c.res.CondLock(f.Flow.IDOf(op.Recv).Class)
		if l == "" {
			return nil
		}
		if others := without(held, l); len(others) > 0 {
			return &finding{category: catalog.Wait, what: "call of (*sync.Cond).Wait", held: others}
		}
		return nil
	}
	cat := c.res.Catalog
	if call.IsInvoke() {
		return c.classifyInvoke(f, call, held)
	}
	if y := summary.YieldArg(call); y != nil {
		// A range-over-func loop: the iterator is traversal code and the
		// loop body is checked in place.
		return nil
	}
	if f.Flow.IsUnlocker(call.Value) {
		return nil // the unlock function a lock wrapper returned
	}
	callee := summary.StaticCallee(call)
	if callee == nil {
		callee = summary.ResolveFunc(f.Fn, call.Value)
	}
	if callee == nil {
		if _, ok := call.Value.(*ssa.Builtin); ok || summary.KnownFuncValue(call.Value) {
			return nil
		}
		if fns, ok := c.res.FieldFuncs(f.Flow, call.Value); ok {
			// A field the package only ever sets to known functions.
			return c.firstBlocking(fns, "call of func value "+c.source(call.Pos(), call.Value), held)
		}
		return &finding{category: "callback", what: "call of func value " + c.source(call.Pos(), call.Value), held: held}
	}
	if m, iface, ok := summary.BoundMethod(callee); ok {
		if iface {
			return &finding{category: "callback", what: "call of func value " + c.source(call.Pos(), call.Value), held: held}
		}
		if m != nil {
			callee = m
		}
	}
	if cf := c.res.Func(callee); cf != nil && cf.InPlace {
		return nil // its body is checked in this context
	}
	name := c.calleeName(callee)
	if obj := summary.FuncObject(callee); obj != nil {
		if kind, ok := cat.Direct(obj); ok {
			return &finding{category: kind, what: "call of " + name, held: held}
		}
	}
	s := c.res.SummaryOf(callee)
	if s == nil {
		return nil
	}
	if r := s.Block; r != nil {
		if hs := c.blockedBy(r, held); len(hs) > 0 {
			return &finding{category: "blocks", what: "call of " + name + ", which blocks: " + c.chain(r), held: hs}
		}
	}
	// Func values handed to a callee that calls them.
	for i, arg := range call.Args {
		if !s.CallsParam(i) {
			continue
		}
		if g := summary.ClosureFn(arg); g != nil {
			if gs := c.res.SummaryOf(g); gs != nil && gs.Block != nil {
				if hs := c.blockedBy(gs.Block, held); len(hs) > 0 {
					return &finding{category: "blocks", what: "call of " + name + " with a func that blocks: " + c.chain(gs.Block), held: hs}
				}
			}
			continue
		}
		if !summary.IsNil(arg) && !summary.KnownFuncValue(arg) {
			return &finding{category: "callback", what: "call of " + name + ", which calls func value " + summary.ValueName(arg), held: held}
		}
	}
	// Interface values handed to a callee that calls their methods
	// (fmt.Fprintf(conn, ...), io.Copy(file, r)): judged by what is passed.
	for i, arg := range call.Args {
		if !s.InvokesParam(i) {
			continue
		}
		if kind, op, ok := c.ioBlocking(arg); ok {
			return &finding{category: kind, what: "call of " + name + ", which calls " + op + " on " + c.argName(call, i), held: held}
		}
	}
	if c.res.Func(callee) == nil {
		return nil // other packages' callbacks are their documented contracts
	}
	if r := s.Callback; r != nil {
		if hs := c.blockedBy(r, held); len(hs) > 0 {
			return &finding{category: "callback", what: "call of " + name + ", which calls " + r.Chain[len(r.Chain)-1] + " (" + c.chain(r) + ")", held: hs}
		}
	}
	if r := s.Unknown; r != nil {
		if hs := c.blockedBy(r, held); len(hs) > 0 {
			return &finding{category: "interface", what: "call of " + name + ", which calls " + r.Chain[len(r.Chain)-1], held: hs}
		}
	}
	return nil
}

// classifyInvoke classifies an interface method call.
func (c *checker) classifyInvoke(f *summary.Func, call *ssa.CallCommon, held []lockstate.Held) *finding {
	m := call.Method
	if kind, ok := c.res.Catalog.Blocking(m); ok {
		return &finding{category: kind, what: "call of " + summary.IfaceMethodName(call.Value.Type(), m, c.pass.Pkg), held: held}
	}
	if ms, ok := c.res.FieldMethods(f.Flow, call.Value, m); ok {
		// A field the package only ever sets to values of known types.
		return c.firstBlocking(ms, "call of "+summary.IfaceMethodName(call.Value.Type(), m, c.pass.Pkg), held)
	}
	if !m.Exported() && m.Pkg() == c.pass.Pkg {
		// Only the package's own types implement an unexported method:
		// judge the call by what they do.
		return c.firstBlocking(c.res.Implementations(call), "call of "+summary.IfaceMethodName(call.Value.Type(), m, c.pass.Pkg), held)
	}
	if catalog.Cheap(call.Value.Type(), m) || summary.QuietMethod(m) {
		return nil
	}
	return &finding{category: "interface", what: "call of interface method " + summary.IfaceMethodName(call.Value.Type(), m, c.pass.Pkg), held: held}
}

// ioMethods are the methods I/O helpers call on the readers and writers
// they are given.
var ioMethods = []string{"Write", "WriteString", "Read", "ReadFrom", "WriteTo"}

// ioBlocking reports whether a value handed to an I/O helper blocks when
// its I/O methods are called: a concrete type whose method is in the
// catalogue or blocks by its summary (*os.File, *tls.Conn), or an
// interface whose method is in the catalogue (net.Conn). Values of unknown
// dynamic type are not judged.
func (c *checker) ioBlocking(arg ssa.Value) (kind, op string, ok bool) {
	t := arg.Type()
	switch a := arg.(type) {
	case *ssa.MakeInterface:
		t = a.X.Type()
	case *ssa.ChangeInterface:
		t = a.X.Type() // a net.Conn passed as an io.Writer
	}
	ms := c.res.Pkg.Prog.MethodSets.MethodSet(t)
	for _, name := range ioMethods {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			continue
		}
		m, isFunc := sel.Obj().(*types.Func)
		if !isFunc {
			continue
		}
		if types.IsInterface(t) {
			if kind, ok := c.res.Catalog.Direct(m); ok {
				return kind, summary.IfaceMethodName(t, m, c.pass.Pkg), true
			}
			continue
		}
		if kind, ok := c.res.Catalog.Direct(m); ok {
			return kind, summary.FuncName(m, c.pass.Pkg), true
		}
		if fn := c.res.Pkg.Prog.FuncValue(m.Origin()); fn != nil {
			if s := c.res.SummaryOf(fn); s != nil && s.Block != nil && s.Block.CondLock == "" {
				return "blocks", summary.FuncName(m, c.pass.Pkg) + ", which blocks: " + c.chain(s.Block), true
			}
		}
	}
	return "", "", false
}

// argName renders the i'th argument of a call (the receiver is 0 for a
// method call) as written.
func (c *checker) argName(call *ssa.CallCommon, i int) string {
	if ce := c.calls.At(call.Pos()); ce != nil {
		args := ce.Args
		if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
			if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
				args = append([]ast.Expr{sel.X}, ce.Args...)
			}
		}
		if i < len(args) {
			return types.ExprString(args[i])
		}
	}
	return summary.ValueName(call.Args[i])
}

// firstBlocking judges a call that can only reach fns (the implementations
// of an unexported method, the known values of a field): a finding when one
// of them blocks.
func (c *checker) firstBlocking(fns []*ssa.Function, what string, held []lockstate.Held) *finding {
	for _, fn := range fns {
		if s := c.res.SummaryOf(fn); s != nil && s.Block != nil {
			if hs := c.blockedBy(s.Block, held); len(hs) > 0 {
				return &finding{category: "blocks", what: what + ", which blocks: " + c.chain(s.Block), held: hs}
			}
		}
	}
	return nil
}

// blockedBy returns the held locks that a reason affects: all of them,
// except that a sync.Cond wait releases the Cond's own lock, and a callee
// that opens an unlock/relock window releases the caller's lock around the
// operation.
func (c *checker) blockedBy(r *summary.Reason, held []lockstate.Held) []lockstate.Held {
	if r.CondLock != "" {
		held = without(held, r.CondLock)
	}
	for _, class := range r.Released {
		held = without(held, class)
	}
	return held
}

func without(held []lockstate.Held, class string) []lockstate.Held {
	var out []lockstate.Held
	for _, h := range held {
		if h.Class != class {
			out = append(out, h)
		}
	}
	return out
}

// chain renders a reason chain with the current package's qualifier dropped.
func (c *checker) chain(r *summary.Reason) string {
	prefix := c.pass.Pkg.Name() + "."
	parts := make([]string, len(r.Chain))
	for i, p := range r.Chain {
		parts[i] = strings.TrimPrefix(p, prefix)
	}
	return strings.Join(parts, " -> ")
}

func (c *checker) calleeName(fn *ssa.Function) string {
	return strings.TrimPrefix(summary.SSAFuncName(fn, nil), c.pass.Pkg.Name()+".")
}
