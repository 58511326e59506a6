package summary

import (
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// quietPackage reports packages whose own operations never make a caller
// block: the runtime and the packages beneath sync and reflect, and
// loggers (see loggingModules). Their
// channel operations and callbacks are implementation details (the
// garbage collector, finalizers, lock-free algorithms), and what in them
// really blocks is listed in the catalogue.
func quietPackage(path string) bool {
	if loggingPackage(path) {
		return true
	}
	switch path {
	case "runtime", "reflect", "sync", "sync/atomic", "unique", "weak", "iter", "unsafe", "syscall",
		"log", "log/slog":
		return true
	}
	for _, prefix := range []string{"runtime/", "internal/", "vendor/"} {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	// The standard library's other internal packages (crypto/internal/...):
	// what in them blocks is reached through catalogued entry points.
	return isStd(path) && strings.Contains(path, "/internal/")
}

// loggingModules are logging libraries. Writing a log line under a lock is
// I/O, but it is the one kind that reviewers accept, so loggers never make
// their callers block.
var loggingModules = []string{
	"k8s.io/klog",
	"github.com/golang/glog",
	"github.com/sirupsen/logrus",
	"go.uber.org/zap",
	"github.com/rs/zerolog",
	"github.com/go-logr/",
	"github.com/go-kit/log",
	"github.com/go-kit/kit/log",
	"github.com/hashicorp/go-hclog",
	"github.com/apex/log",
}

func loggingPackage(path string) bool {
	for _, m := range loggingModules {
		if strings.HasSuffix(m, "/") { // a prefix of module paths
			if strings.HasPrefix(path, m) {
				return true
			}
		} else if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// isStd reports whether a package path belongs to the standard library.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// ResolveFunc returns the function that the func value v of fn always
// denotes: a function, a closure, or a captured variable bound to one by the
// (unique) closure that creates fn. It returns nil for func values that come
// from elsewhere.
func ResolveFunc(fn *ssa.Function, v ssa.Value) *ssa.Function {
	for depth := 0; depth < 8; depth++ {
		if g := ClosureFn(v); g != nil {
			return g
		}
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
			if fv, ok := u.X.(*ssa.FreeVar); ok {
				// *fv: the captured variable's address is bound by
				// the parent's MakeClosure.
				b, parent := binding(fn, fv)
				if b == nil {
					return nil
				}
				alloc, ok := b.(*ssa.Alloc)
				if !ok {
					return nil
				}
				v, fn = &ssa.UnOp{Op: token.MUL, X: alloc}, parent
				continue
			}
			if alloc, ok := u.X.(*ssa.Alloc); ok {
				// A local func variable captured by a closure lives
				// in memory; resolve it if it is stored only once.
				if stored := onlyStore(alloc); stored != nil {
					v = stored
					continue
				}
				return nil
			}
		}
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return nil
		}
		if v, fn = binding(fn, fv); v == nil {
			return nil
		}
	}
	return nil
}

// binding returns the value the parent binds to free variable fv of
// closure fn, and the parent.
func binding(fn *ssa.Function, fv *ssa.FreeVar) (ssa.Value, *ssa.Function) {
	if fn.Parent() == nil {
		return nil, nil
	}
	mc := makeClosureOf(fn)
	for i, f := range fn.FreeVars {
		if f == fv && mc != nil && i < len(mc.Bindings) {
			return mc.Bindings[i], fn.Parent()
		}
	}
	return nil, nil
}

// onlyStore returns the value stored into alloc when there is exactly one
// store and the address does not escape otherwise.
func onlyStore(alloc *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != alloc || val != nil {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			// captured by reference: only loads happen in the closure
			// unless it stores; a closure that assigns the variable is
			// rare enough to accept.
		default:
			return nil
		}
	}
	return val
}

// makeClosureOf returns the unique MakeClosure creating fn in its parent.
func makeClosureOf(fn *ssa.Function) *ssa.MakeClosure {
	var found *ssa.MakeClosure
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if found != nil {
					return nil
				}
				found = mc
			}
		}
	}
	return found
}

// KnownFuncValue reports whether a func value comes from code that is not
// foreign to a critical section: an unexported package-level func variable
// (by convention a test hook such as nowFunc), a function returned by the
// standard library (an iterator from maps.Keys, say), or a context cancel
// function (it closes a channel and returns; cancelling under a lock is
// idiomatic).
func KnownFuncValue(v ssa.Value) bool {
	if isCancelFunc(v) {
		return true
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		// Unexported package-level func variables are test hooks
		// (nowFunc, testHookDial); exported ones are set by users.
		g, ok := v.X.(*ssa.Global)
		return ok && !g.Object().Exported()
	case *ssa.Call:
		if callee := v.Call.StaticCallee(); callee != nil {
			if obj := FuncObject(callee); obj != nil && obj.Pkg() != nil {
				return inStd(callee.Prog.Fset, obj)
			}
		}
	}
	return false
}

// YieldArg returns the synthetic yield function passed to an iterator by a
// range-over-func loop, or nil when the call is not such a loop.
func YieldArg(c *ssa.CallCommon) *ssa.Function {
	for _, arg := range c.Args {
		if g := ClosureFn(arg); g != nil && g.Synthetic == "range-over-func yield" {
			return g
		}
	}
	return nil
}

// BoundMethod returns the method behind a bound method wrapper (the
// function of a method value x.M), and whether its receiver is an interface
// (then the method value runs unknown code). For other functions it returns
// nil.
func BoundMethod(fn *ssa.Function) (method *ssa.Function, iface bool, ok bool) {
	if !strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		return nil, false, false
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		return nil, false, false
	}
	if recv := obj.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return nil, true, true
	}
	return fn.Prog.FuncValue(obj), false, true
}

// inStd reports whether obj is declared in the standard library: its source
// lies under GOROOT. Positions of imported objects come from export data;
// when there is none, a path whose first element has no dot is taken as std.
func inStd(fset *token.FileSet, obj *types.Func) bool {
	if obj.Pkg() == nil {
		return true
	}
	if p := fset.Position(obj.Pos()); p.Filename != "" {
		return strings.HasPrefix(p.Filename, gorootSrc) || strings.HasPrefix(p.Filename, "$GOROOT")
	}
	return isStd(obj.Pkg().Path())
}

var gorootSrc = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

// isCancelFunc reports whether v is a context cancel function: of type
// context.CancelFunc or CancelCauseFunc, or a func() named like one
// (cancel, cancelFn, stopCancel, ...), which is how one is usually stored.
func isCancelFunc(v ssa.Value) bool {
	if n, ok := types.Unalias(v.Type()).(*types.Named); ok {
		obj := n.Obj()
		if obj.Pkg() != nil && obj.Pkg().Path() == "context" && (obj.Name() == "CancelFunc" || obj.Name() == "CancelCauseFunc") {
			return true
		}
	}
	sig, ok := v.Type().Underlying().(*types.Signature)
	if !ok || sig.Params().Len() > 1 || sig.Results().Len() != 0 {
		return false
	}
	name := strings.ToLower(ValueName(v))
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.HasPrefix(name, "cancel") || strings.HasSuffix(name, "cancel")
}

// IfaceMethodName renders an interface method as "io.Writer.Write",
// qualified relative to package from.
func IfaceMethodName(t types.Type, m *types.Func, from *types.Package) string {
	qual := types.RelativeTo(from)
	if recv := m.Signature().Recv(); recv != nil {
		if n, ok := types.Unalias(recv.Type()).(*types.Named); ok {
			return types.TypeString(n, qual) + "." + m.Name()
		}
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return types.TypeString(n, qual) + "." + m.Name()
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return tp.Obj().Name() + "." + m.Name()
	}
	return m.Name()
}

// QuietMethod reports whether an interface method is declared by a quiet
// package (internal/testlog's hooks, say): the runtime's and the standard
// library's internal interfaces are implementation details, not foreign
// code.
func QuietMethod(m *types.Func) bool {
	return m.Pkg() != nil && quietPackage(m.Pkg().Path())
}
