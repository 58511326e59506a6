package summary

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// forwardField follows a callee's lock through a field of an object the
// caller has just allocated: m := &membersAPI{client: c}; m.Leader()
// locks m.client.mu, which is c.mu. When l hangs off a parameter whose
// argument in args is an allocation of fn, and fn stores that object's
// field (the first segment of l's path) exactly once, it returns l with
// that segment dropped and the stored value as its new root.
func forwardField(fn *ssa.Function, l lockstate.ID, args []ssa.Value) (lockstate.ID, ssa.Value, bool) {
	if l.Root != lockstate.RootParam || l.RootIndex >= len(args) || args[l.RootIndex] == nil {
		return l, nil, false
	}
	alloc, ok := lockstate.Unbox(args[l.RootIndex]).(*ssa.Alloc)
	if !ok || alloc.Parent() != fn || !strings.HasPrefix(l.Path, ".") {
		return l, nil, false
	}
	name, rest := l.Path[1:], ""
	if i := strings.IndexAny(name, ".["); i >= 0 {
		name, rest = name[:i], name[i:]
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		f := structField(alloc.Type().Underlying().(*types.Pointer).Elem(), fa.Field)
		if f == nil || f.Name() != name {
			continue
		}
		for _, r := range *fa.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			if stored != nil {
				return l, nil, false // set twice: which one is not known
			}
			stored = st.Val
		}
	}
	if stored == nil {
		return l, nil, false
	}
	if _, ok := stored.Type().Underlying().(*types.Pointer); !ok {
		return l, nil, false // a copy, not the caller's object
	}
	out := l
	out.Path = rest
	out.NamePath = trimSegment(l.NamePath, name)
	out.FullPath = trimSegment(l.FullPath, name)
	return out, stored, true
}

// trimSegment drops the leading ".name" of a path, if it has it.
func trimSegment(path, name string) string {
	if rest, ok := strings.CutPrefix(path, "."+name); ok {
		return rest
	}
	return path
}
