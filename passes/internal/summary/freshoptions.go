package summary

import (
	"go/token"
	"go/types"
	"strings"

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
// not silent; and only when the call is configuration by what it is
// handed or by its type:
//   - the object's type keeps its fields to the package (none exported):
//     a user's own option can set nothing on it, so the options that
//     matter are the package's constructors;
//   - or the func value's named type says it is an option (PublishOption,
//     NetOpt, DialOption: a name ending in Option or Opt, or OptionFunc),
//     and takes a pointer to a struct and returns nothing or an error:
//     the functional-options idiom, whose funcs set fields of the config
//     they are handed, whoever writes them.
//
// An event handed to a hook (func(*DialEvent)), or an entry handed to a
// filter, keeps the finding: the user's func is the work.

// AppliedToFresh reports whether call, a call of a func value in f, hands
// it only objects no other goroutine can reach yet: each argument points
// to an object f allocates (or a constructor of the package returns) that
// has not escaped before the call, of a struct type of the package with no
// exported field; and there is at least one.
func (r *Result) AppliedToFresh(f *Func, call ssa.CallInstruction) bool {
	return f != nil && f.Flow != nil && r.a.appliedToFresh(f.Fn, call)
}

// appliedToFresh is AppliedToFresh for a call in fn: the summary's chains
// use it too (a helper that applies the options it is handed to the
// config it returns).
func (a *analyzer) appliedToFresh(fn *ssa.Function, call ssa.CallInstruction) bool {
	c := call.Common()
	if len(c.Args) == 0 {
		return false
	}
	option := optionFunc(c.Value.Type())
	for _, arg := range c.Args {
		obj := arg
		if ld, ok := arg.(*ssa.UnOp); ok && ld.Op == token.MUL {
			// The variable holding it, when a closure captures it too.
			if cell, ok := ld.X.(*ssa.Alloc); ok {
				obj = cellValueAt(cell, call)
			}
		}
		configured := option || a.fieldsHidden(arg.Type())
		if obj == nil || !configured || !a.privateObject(fn, obj, strict) || a.escapesBefore(obj, call, call, strict) {
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

// optionFunc reports whether t is a functional option's type: a named
// func type called ...Option, ...Opt or ...OptionFunc (any case), with one
// parameter, a pointer to a struct, and no result or an error.
func optionFunc(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	if !optionName(n.Obj().Name()) {
		return false
	}
	sig, ok := n.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() > 1 {
		return false
	}
	if sig.Results().Len() == 1 && !types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	p, ok := sig.Params().At(0).Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, isStruct := p.Elem().Underlying().(*types.Struct)
	return isStruct
}

// optionName reports whether a func type's name says it is an option: it
// is Option, Opt or OptionFunc, or ends with one of them as a word
// (PublishOption, NetOpt, dialOptionFunc; not Adopt).
func optionName(name string) bool {
	for _, word := range []string{"Option", "Opt", "OptionFunc", "OptFunc"} {
		if strings.EqualFold(name, word) || strings.HasSuffix(name, word) {
			return true
		}
	}
	return false
}

// AppliedToFreshWhy is the note's reason for such a call.
const AppliedToFreshWhy = "an option applied to an object no other goroutine can reach yet"
