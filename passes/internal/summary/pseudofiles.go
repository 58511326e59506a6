package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A file under /proc or /sys is the kernel's own state, not storage: a
// sysctl written, a flag read, answered by the kernel in the call without
// touching a disk. Reading or writing one by path under a lock is not file
// I/O worth a finding:
//
//	os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte("1"), 0644)
//	os.ReadFile("/proc/sys/net/ipv6/conf/all/disable_ipv6")
//
// Only calls of package os whose first argument is the path and whose
// path is seen to start with such a prefix count: a constant, a
// concatenation starting with one, or fmt.Sprintf, filepath.Join or
// path.Join whose first argument does.

// pseudoFS are the prefixes of the kernel's pseudo-file systems.
var pseudoFS = []string{"/proc/", "/sys/"}

// pseudoFileCall reports whether a call of fn with args reads or writes a
// kernel pseudo-file by its path.
func pseudoFileCall(fn *types.Func, args []ssa.Value) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "os" || len(args) == 0 || args[0] == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() != nil || sig.Params().Len() == 0 || !isString(sig.Params().At(0).Type()) {
		return false
	}
	prefix, ok := stringPrefix(args[0], 0)
	if !ok {
		return false
	}
	for _, p := range pseudoFS {
		if strings.HasPrefix(prefix, p) {
			return true
		}
	}
	return false
}

// stringPrefix returns the constant text a string value is seen to start
// with.
func stringPrefix(v ssa.Value, depth int) (string, bool) {
	if depth > 4 {
		return "", false
	}
	switch v := lockstate.Unbox(v).(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return constant.StringVal(v.Value), true
		}
	case *ssa.BinOp:
		if v.Op == token.ADD {
			return stringPrefix(v.X, depth+1)
		}
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || len(v.Call.Args) == 0 {
			return "", false
		}
		switch callee.Pkg.Pkg.Path() + "." + callee.Name() {
		case "fmt.Sprintf":
			return stringPrefix(v.Call.Args[0], depth+1)
		case "path/filepath.Join", "path.Join":
			// The first element of the variadic slice of strings.
			if elems := VariadicArgs(v.Call.Args[0]); len(elems) > 0 && elems[0] != nil {
				return stringPrefix(elems[0], depth+1)
			}
		}
	}
	return "", false
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
