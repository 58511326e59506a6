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

// MethodArgs returns the arguments, in the method's parameter order, of
// the call c of a bound method wrapper (BoundMethod): the receiver the
// method value was bound to, nil when the call does not show it, then
// c's arguments.
func MethodArgs(c *ssa.CallCommon) []ssa.Value {
	var recv ssa.Value
	if mc, ok := c.Value.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
		recv = mc.Bindings[0]
	}
	return append([]ssa.Value{recv}, c.Args...)
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
	return quietPkg(m.Pkg())
}

// quietPkg is quietPackage for a package of the program: a logger of the
// project's own (LoggerPackage) is quiet too.
func quietPkg(p *types.Package) bool {
	return p != nil && (quietPackage(p.Path()) || LoggerPackage(p))
}
