package lockorder

import (
	"go/types"
	"strings"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// Lock-order edges join locks by the object that holds them. A lock's Full
// class keeps the path from the outermost named type (so that a
// connection's two half-connections' locks, c.in.mu and c.out.mu, stay
// apart), but a path through a pointer leaves the outer object: a
// replica's r.store.hbMu is its store's hbMu, the lock its store's own
// methods take as s.hbMu. orderClass restarts the path at the last
// pointer it follows.

// orderClass returns the class under which lock-order edges record id:
// its Full class, restarted at the last pointer the path follows.
func (c *checker) orderClass(id lockstate.ID) string {
	full := id.Full
	if full == "" {
		return ""
	}
	if v, ok := c.orderClasses[full]; ok {
		return v
	}
	out := full
	if t, prefix, rest, ok := c.rootType(full); ok {
		switch r, how := restart(t, prefix, rest); how {
		case restarted:
			out = r
		case throughInterface:
			// The lock is in the dynamic value of an interface: another
			// object, whose class is the one its methods lock it by (a
			// cache's store.Replace locks the store's own mutex).
			if id.Class != "" {
				out = id.Class
			}
		}
	}
	if c.orderClasses == nil {
		c.orderClasses = map[string]string{}
	}
	c.orderClasses[full] = out
	return out
}

// rootType parses the root of a Full class: the named type of "(*pkg.T)"
// or the type of the package-level variable "pkg.v". It returns the type,
// the root as written and the path below it.
func (c *checker) rootType(full string) (t types.Type, prefix, path string, ok bool) {
	if rest, ok := strings.CutPrefix(full, "(*"); ok {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return nil, "", "", false
		}
		name := rest[:end]
		dot := strings.LastIndexByte(name, '.')
		if dot < 0 {
			return nil, "", "", false
		}
		pkg := c.findPackage(name[:dot])
		if pkg == nil {
			return nil, "", "", false
		}
		tn, ok := pkg.Scope().Lookup(name[dot+1:]).(*types.TypeName)
		if !ok {
			return nil, "", "", false
		}
		return tn.Type(), full[:len(full)-len(rest)+end+1], rest[end+1:], true
	}
	// A package-level variable: the package path ends at one of the dots
	// after its last slash.
	slash := strings.LastIndexByte(full, '/')
	for i := slash + 1; i < len(full); i++ {
		if full[i] != '.' {
			continue
		}
		pkg := c.findPackage(full[:i])
		if pkg == nil {
			continue
		}
		name := full[i+1:]
		if j := strings.IndexAny(name, ".["); j >= 0 {
			name = name[:j]
		}
		v, ok := pkg.Scope().Lookup(name).(*types.Var)
		if !ok {
			return nil, "", "", false
		}
		return v.Type(), full[:i+1+len(name)], full[i+1+len(name):], true
	}
	return nil, "", "", false
}

// How a path walk by restart ended.
type restartResult int

const (
	unparsed         restartResult = iota // the path does not fit the types
	restarted                             // the class, restarted at the last pointer
	throughInterface                      // the path goes on inside an interface's dynamic value
)

// restart walks path (".f", "[]" segments) from type t, written prefix,
// and returns the class of its end restarted at the last pointer followed
// before it.
func restart(t types.Type, prefix, path string) (string, restartResult) {
	out := prefix
	for path != "" {
		var seg string
		switch {
		case strings.HasPrefix(path, "[]"):
			seg, path = "[]", path[2:]
			switch u := deref(t).Underlying().(type) {
			case *types.Slice:
				t = u.Elem()
			case *types.Array:
				t = u.Elem()
			case *types.Map:
				t = u.Elem()
			default:
				return "", unparsed
			}
		case strings.HasPrefix(path, "."):
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			name := path[1 : 1+end]
			seg, path = "."+name, path[1+end:]
			if types.IsInterface(t) {
				return "", throughInterface
			}
			st, ok := deref(t).Underlying().(*types.Struct)
			if !ok {
				return "", unparsed
			}
			var f *types.Var
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Name() == name {
					f = st.Field(i)
				}
			}
			if f == nil {
				return "", unparsed
			}
			t = f.Type()
		default:
			return "", unparsed
		}
		out += seg
		if path == "" {
			break
		}
		if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
			if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && !ownCond(n, path) {
				if _, isStruct := n.Underlying().(*types.Struct); isStruct {
					out = "(*" + typeName(n) + ")" // the pointee is another object
				}
			}
		}
	}
	return out, restarted
}

// ownCond reports whether the path below a pointer to n is the L of a
// sync.Cond: the Cond's lock is its holder's (q.cond.L is the pool's
// lock), not one lock of every Cond.
func ownCond(n *types.Named, path string) bool {
	return path == ".L" && lockstate.IsSyncCond(n)
}

// typeName writes a named type as lock classes do: "pkg/path.T".
func typeName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return t.String()
	}
	obj := n.Origin().Obj()
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// findPackage returns the package with the given path: the package being
// analysed or one it imports, directly or not; nil if none.
func (c *checker) findPackage(path string) *types.Package {
	if c.packages == nil {
		c.packages = map[string]*types.Package{}
		work := []*types.Package{c.pass.Pkg}
		for len(work) > 0 {
			p := work[len(work)-1]
			work = work[:len(work)-1]
			if _, seen := c.packages[p.Path()]; seen {
				continue
			}
			c.packages[p.Path()] = p
			work = append(work, p.Imports()...)
		}
	}
	return c.packages[path]
}
