package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// An error library that prints the source line of each frame of a stack
// trace opens the Go source file the runtime names for the frame
// (go-errors' StackFrame.SourceLine, reached from ErrorStack). That read
// is debugging output built while an error is formatted, on a path that
// reports a bug; it is not I/O a lock waits for:
//
//	func NewStackFrame(pc uintptr) (frame StackFrame) {
//		frame.File, frame.LineNumber = frame.Func().FileLine(pc - 1)
//		...
//	}
//
//	func (frame *StackFrame) sourceLine() (string, error) {
//		file, err := os.Open(frame.File) // the frame's source file
//
// A call of package os whose path is a file name the runtime gave for a
// frame (runtime.Caller's, (*runtime.Func).FileLine's, runtime.Frame's
// File), directly or through a string field that the package sets to
// such a name (the field holds a frame's file: go-errors also fills it
// from a parsed panic trace, the same file names as text), is not a wait.

// stackSourceRead reports whether a call of obj with args opens or reads
// the source file of a stack frame by its path.
func (a *analyzer) stackSourceRead(obj *types.Func, args []ssa.Value) bool {
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "os" || len(args) == 0 || args[0] == nil {
		return false
	}
	sig, ok := obj.Type().(*types.Signature)
	if !ok || sig.Recv() != nil || sig.Params().Len() == 0 || !isString(sig.Params().At(0).Type()) {
		return false
	}
	return a.framePath(args[0], 0)
}

// StackSourceRead is stackSourceRead for the analyzers: a call of obj
// with args, made directly under a lock.
func (r *Result) StackSourceRead(obj *types.Func, args []ssa.Value) bool {
	return r.a.stackSourceRead(obj, args)
}

// framePath reports whether the string v is a file name the runtime gave
// for a stack frame.
func (a *analyzer) framePath(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := lockstate.Unbox(v).(type) {
	case *ssa.Extract:
		call, ok := x.Tuple.(*ssa.Call)
		if !ok {
			return false
		}
		callee := call.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "runtime" {
			return false
		}
		switch callee.Name() {
		case "FileLine": // (*runtime.Func).FileLine: file, line
			return x.Index == 0
		case "Caller": // runtime.Caller: pc, file, line, ok
			return x.Index == 1
		}
	case *ssa.Field:
		return a.frameField(structField(x.X.Type(), x.Field), depth)
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return a.frameField(structField(fa.X.Type(), fa.Field), depth)
		}
	}
	return false
}

// frameField reports whether the string field f holds a frame's file
// name: runtime.Frame's File, or a field of the package that a store of
// the package sets to one (its meaning; other stores fill it from text).
func (a *analyzer) frameField(f *types.Var, depth int) bool {
	if f == nil || !isString(f.Type()) {
		return false
	}
	if f.Pkg() != nil && f.Pkg().Path() == "runtime" {
		return f.Name() == "File" // runtime.Frame.File
	}
	if f.Pkg() != a.pkg.Pkg {
		return false
	}
	named := false
	a.eachFieldStore(f, func(_ *ssa.FieldAddr, st *ssa.Store) bool {
		named = a.framePath(st.Val, depth+1)
		return !named
	})
	return named
}
