package summary

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// optionsSet decides c, a condition on the option flag c.Opt of a
// callee's options parameter, for arg, the list of options (or the one
// option) a call in fn passes (see optionflags.go). The list is followed
// through appends, slice expressions, φs and the array a variadic call or
// a composite literal fills; each option in it must be the result of a
// call of a constructor of the flag's package:
//   - one of c.Setters: the flag may be set, and c stays undecided;
//   - another, none of whose parameters can carry an option: the flag
//     stays zero as far as it goes.
//
// When every option is of the second kind, c is decided (known): the flag
// is zero. When the list also extends fn's own parameter, and only one,
// c is carried onto it (param; -1 otherwise). Anything else (an option
// from a variable, a field, a helper of another package) leaves c
// undecided.
func optionsSet(fn *ssa.Function, c lockstate.Cond, arg ssa.Value) (known, holds bool, param int) {
	r := optionResolver{fn: fn, pkg: optionPkg(c.Opt), owner: optionOwner(c.Opt), setters: strings.Split(c.Setters, ","), seen: map[ssa.Value]bool{}}
	r.list(arg, 0)
	switch {
	case r.unknown || r.setter:
		return false, false, -1
	case len(r.params) == 1:
		return false, false, r.params[0]
	case len(r.params) > 1:
		return false, false, -1
	}
	return true, !c.Value, -1
}

// optionPkg returns the package path of an option flag's key,
// "path.Type.field".
func optionPkg(key string) string {
	for range 2 {
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return ""
		}
		key = key[:i]
	}
	return key
}

// optionOwner returns the configuration type's name in an option flag's
// key, "path.Type.field".
func optionOwner(key string) string {
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return ""
	}
	key = key[:i]
	return key[strings.LastIndexByte(key, '.')+1:]
}

type optionResolver struct {
	fn      *ssa.Function
	pkg     string
	owner   string // the configuration type's name
	setters []string
	seen    map[ssa.Value]bool

	setter, unknown bool
	params          []int
}

// list follows a list of options (or one option) to its elements.
func (r *optionResolver) list(v ssa.Value, depth int) {
	if r.unknown || r.seen[v] {
		return
	}
	if depth > maxCondDepth {
		r.unknown = true
		return
	}
	r.seen[v] = true
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		r.option(v)
		return
	}
	switch x := v.(type) {
	case *ssa.Const:
		if !x.IsNil() {
			r.unknown = true
		}
	case *ssa.Parameter:
		i := slices.Index(r.fn.Params, x)
		if i < 0 {
			r.unknown = true
			return
		}
		if !slices.Contains(r.params, i) {
			r.params = append(r.params, i)
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			r.list(e, depth+1)
		}
	case *ssa.Call:
		b, ok := x.Call.Value.(*ssa.Builtin)
		if !ok || b.Name() != "append" || len(x.Call.Args) != 2 {
			r.unknown = true
			return
		}
		r.list(x.Call.Args[0], depth+1)
		r.list(x.Call.Args[1], depth+1)
	case *ssa.Slice:
		arr, ok := x.X.(*ssa.Alloc)
		if !ok {
			r.list(x.X, depth+1)
			return
		}
		r.array(arr)
	default:
		r.unknown = true
	}
}

// array follows the elements stored into arr, the array behind a variadic
// call's list or a composite literal; any other use of it is unknown.
func (r *optionResolver) array(arr *ssa.Alloc) {
	if _, ok := arr.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array); !ok || arr.Parent() != r.fn {
		r.unknown = true
		return
	}
	for _, ref := range *arr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Slice:
			if !r.seen[ref] {
				// Another slice of the array (opts[:1] handed to a
				// helper) may write a setter's option into it.
				r.unknown = true
				return
			}
		case *ssa.IndexAddr:
			for _, use := range *ref.Referrers() {
				st, ok := use.(*ssa.Store)
				if !ok || st.Addr != ssa.Value(ref) {
					r.unknown = true
					return
				}
				r.option(st.Val)
			}
		default:
			r.unknown = true
			return
		}
	}
}

// option judges one option of the list.
func (r *optionResolver) option(v ssa.Value) {
	opt := v.Type()
	for {
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
			continue
		}
		if ct, ok := v.(*ssa.ChangeType); ok {
			v = ct.X
			continue
		}
		break
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		r.unknown = true
		return
	}
	g := StaticCallee(call.Common())
	if g == nil || g.Signature.Recv() != nil || g.Pkg == nil || g.Pkg.Pkg.Path() != r.pkg {
		r.unknown = true
		return
	}
	if o := g.Origin(); o != nil {
		g = o
	}
	if slices.Contains(r.setters, g.Name()) {
		r.setter = true
		return
	}
	for i := range g.Signature.Params().Len() {
		if carries(g.Signature.Params().At(i).Type(), &optionFlag{option: opt, ownerPkg: r.pkg, ownerName: r.owner}, map[types.Type]bool{}) {
			r.unknown = true // it may wrap a setter's option
			return
		}
	}
}
