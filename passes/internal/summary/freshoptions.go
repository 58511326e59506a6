package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A functional option applied to an object the function has just made
// configures that object: it is handed nothing any other goroutine can
// reach, so what it does under the caller's lock is its setting of fields,
// not work others wait behind.
//
//	h := &TopicEventHandler{topic: t, evtLog: map[peer.ID]EventType{}}
//	for _, opt := range opts {
//		if err := opt(h); err != nil { // configuration of h, under t.mux
//			return nil, err
//		}
//	}
//
// The option is still code the caller supplies, so such a call is a note,
// not silent; and only when the object's type keeps its fields to the
// package (none exported): a user's own option can set nothing on it, so
// the options that matter are the package's constructors. A config with
// exported fields (DialConfig{Timeout}) or an entry handed to a filter
// keeps the finding: the user's func is the work.

// AppliedToFresh reports whether call, a call of a func value in f, hands
// it only objects no other goroutine can reach yet: each argument points
// to an object f allocates (or a constructor of the package returns) that
// has not escaped before the call, of a struct type of the package with no
// exported field; and there is at least one.
func (r *Result) AppliedToFresh(f *Func, call ssa.CallInstruction) bool {
	c := call.Common()
	if f == nil || f.Flow == nil || len(c.Args) == 0 {
		return false
	}
	for _, arg := range c.Args {
		obj := arg
		if ld, ok := arg.(*ssa.UnOp); ok && ld.Op == token.MUL {
			// The variable holding it, when a closure captures it too.
			if cell, ok := ld.X.(*ssa.Alloc); ok {
				obj = cellValueAt(cell, call)
			}
		}
		if obj == nil || !r.a.fieldsHidden(arg.Type()) || !r.a.privateObject(f.Fn, obj, strict) || r.a.escapesBefore(obj, call, call, strict) {
			return false
		}
	}
	return true
}

// fieldsHidden reports whether t points to a struct type of the package
// none of whose fields is exported.
func (a *analyzer) fieldsHidden(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() != a.pkg.Pkg {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if f.Exported() {
			return false
		}
	}
	return true
}

// AppliedToFreshWhy is the note's reason for such a call.
const AppliedToFreshWhy = "an option applied to an object no other goroutine can reach yet"
