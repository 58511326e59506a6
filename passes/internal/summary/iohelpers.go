package summary

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// ioMethods are the methods I/O helpers (fmt.Fprintf, io.Copy,
// net.Buffers.WriteTo) call on the readers and writers they are given.
var ioMethods = []string{"Write", "WriteString", "Read", "ReadFrom", "WriteTo"}

// IOBlocking reports whether a value handed to an I/O helper blocks when
// its I/O methods are called: a concrete type whose method is in the
// catalogue or blocks by its summary (*os.File, *tls.Conn), or an interface
// whose method is in the catalogue (net.Conn). It returns the category, the
// method (qualified relative to the package) and, for a method that blocks
// by its summary, the reason. Values of unknown dynamic type are not
// judged. param is the type of the parameter the value is handed to, or
// nil: an interface there (io.Reader) names the methods the callee can
// call on it, so io.ReadFull of an *os.File is its Read, not its Write.
func (r *Result) IOBlocking(arg ssa.Value, param types.Type) (kind, method string, reason *Reason, ok bool) {
	return r.a.ioBlocking(arg, param)
}

// ParamType returns the type of the i'th argument of a call of a function
// of signature sig, counting the receiver of a method as argument 0, or
// nil when there is no such parameter (a variadic argument list).
func ParamType(sig *types.Signature, i int) types.Type {
	if sig.Recv() != nil {
		if i == 0 {
			return sig.Recv().Type()
		}
		i--
	}
	if i < sig.Params().Len() {
		return sig.Params().At(i).Type()
	}
	return nil
}

// invocableIOMethods returns the I/O methods a callee can call on a value
// handed to a parameter of type param: those the parameter's interface
// declares, when it declares any, or all of them.
func invocableIOMethods(param types.Type) []string {
	if param == nil || !types.IsInterface(param) {
		return ioMethods
	}
	var names []string
	ms := types.NewMethodSet(param)
	for _, name := range ioMethods {
		if ExportedMethod(ms, name) != nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ioMethods // any, or an interface of other methods the callee asserts from
	}
	return names
}

func (a *analyzer) ioBlocking(arg ssa.Value, param types.Type) (kind, method string, reason *Reason, ok bool) {
	r := a.res
	if standardStream(arg) {
		return "", "", nil, false // printing, like logging, is accepted under a lock
	}
	t := arg.Type()
	switch a := arg.(type) {
	case *ssa.MakeInterface:
		t = a.X.Type()
	case *ssa.ChangeInterface:
		t = a.X.Type() // a net.Conn passed as an io.Writer
	}
	ms := r.Pkg.Prog.MethodSets.MethodSet(t)
	for _, name := range invocableIOMethods(param) {
		sel := ExportedMethod(ms, name)
		if sel == nil {
			continue
		}
		m, isFunc := sel.Obj().(*types.Func)
		if !isFunc {
			continue
		}
		if types.IsInterface(t) {
			if kind, ok := r.Catalog.Direct(m); ok {
				return kind, IfaceMethodName(t, m, r.Pkg.Pkg), nil, true
			}
			continue
		}
		if kind, ok := r.Catalog.Direct(m); ok {
			return kind, FuncName(m, r.Pkg.Pkg), nil, true
		}
		if b := r.a.summaryOfObj(m).AnyBlock(); b != nil && b.CondLock == "" && !b.Join {
			return "blocks", FuncName(m, r.Pkg.Pkg), b, true
		}
	}
	return "", "", nil, false
}

// standardStream reports whether v is os.Stdout or os.Stderr (possibly
// converted to an interface): fmt.Printf and friends print there.
// NoWaitCall reports whether a call of fn, which the catalogue may list
// as blocking, does not wait with these arguments: printing to os.Stdout
// or os.Stderr, a kernel pseudo-file under /proc or /sys, a short constant
// HTTP reply that net/http buffers.
func NoWaitCall(fn *types.Func, args []ssa.Value) bool {
	return standardStreamWrite(fn, args) || pseudoFileCall(fn, args) || shortReplyCall(fn, args)
}

// standardStreamWrite reports whether a call of fn with the arguments args
// (the receiver first) writes to os.Stdout or os.Stderr: printing, which
// is accepted under a lock like logging.
func standardStreamWrite(fn *types.Func, args []ssa.Value) bool {
	return fn != nil && len(args) > 0 && args[0] != nil && strings.HasPrefix(fn.Name(), "Write") &&
		fn.Pkg() != nil && fn.Pkg().Path() == "os" && standardStream(args[0])
}

func standardStream(v ssa.Value) bool {
	u, ok := lockstate.Unbox(v).(*ssa.UnOp)
	if !ok {
		return false
	}
	g, ok := u.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "os" && (g.Name() == "Stdout" || g.Name() == "Stderr")
}

// ExportedMethod is ms.Lookup(nil, name) for an exported name, without the
// string Lookup builds for each unexported method it compares the name
// with (package path and name).
func ExportedMethod(ms *types.MethodSet, name string) *types.Selection {
	for i := range ms.Len() {
		if sel := ms.At(i); sel.Obj().Name() == name {
			return sel
		}
	}
	return nil
}

// VariadicArgs returns the values stored into the slice a variadic call
// passes, in order (nil where unknown).
func VariadicArgs(v ssa.Value) []ssa.Value {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	n := 0
	if at, ok := arr.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array); ok {
		n = int(at.Len())
	}
	out := make([]ssa.Value, n)
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		k, ok := ia.Index.(*ssa.Const)
		if !ok {
			continue
		}
		i, ok := constant.Int64Val(k.Value)
		if !ok || int(i) >= n {
			continue
		}
		for _, r := range *ia.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
				out[i] = st.Val
			}
		}
	}
	return out
}
