package summary

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A handler that writes a short constant reply under its lock
// (w.Write([]byte("ok")), io.WriteString(w, http.StatusText(code))) does
// not wait for the network there: net/http buffers a response body (2 KB
// before its first flush) and sends it after the handler returns, when
// the lock is released. A reply of any other length, or one built from
// data, stays network I/O.

// maxShortReply is the longest constant reply counted as short, well
// below net/http's response buffer.
const maxShortReply = 512

// ShortReplyInvoke reports whether call is a Write or WriteString of a
// short constant reply on an http.ResponseWriter.
func ShortReplyInvoke(call *ssa.CallCommon) bool {
	if !call.IsInvoke() || len(call.Args) != 1 || !isResponseWriter(call.Value.Type()) {
		return false
	}
	switch call.Method.Name() {
	case "Write", "WriteString":
		return shortConst(call.Args[0])
	}
	return false
}

// shortReplyCall reports whether a call of fn with args is io.WriteString
// of a short constant reply to an http.ResponseWriter.
func shortReplyCall(fn *types.Func, args []ssa.Value) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "io" || fn.Name() != "WriteString" || len(args) != 2 {
		return false
	}
	return isResponseWriter(lockstate.Unbox(args[0]).Type()) && shortConst(args[1])
}

// isResponseWriter reports whether t is net/http.ResponseWriter.
func isResponseWriter(t types.Type) bool { return isNamed(t, "net/http", "ResponseWriter") }

// shortConst reports whether v is a constant string of at most
// maxShortReply bytes (as a string or converted to []byte), or the text of
// an HTTP status (http.StatusText).
func shortConst(v ssa.Value) bool {
	if c, ok := v.(*ssa.Convert); ok {
		v = c.X
	}
	switch v := v.(type) {
	case *ssa.Const:
		return v.Value != nil && v.Value.Kind() == constant.String && len(constant.StringVal(v.Value)) <= maxShortReply
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		return callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "net/http" && callee.Name() == "StatusText"
	}
	return false
}
