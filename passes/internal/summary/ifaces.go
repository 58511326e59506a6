package summary

import (
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// A Dispatch says which concrete methods an interface method call can run.
type Dispatch struct {
	// Methods are the concrete methods it can dispatch to, when the set
	// is closed.
	Methods []*types.Func
	// Open, when not empty, says why the set is not closed: code outside
	// what lockaudit can see may implement the interface.
	Open string
}

// Dispatch resolves an interface method call. The set of implementations is
// closed when the package stores only values of known types into the field
// the interface value is loaded from, or when only the module can implement
// the interface: it is unexported, declared in an internal package, or
// sealed by an unexported method (the "embed this to implement" marker
// pattern of gRPC's balancer API). A closed set is resolved to the concrete
// types, in this package and the packages it imports, that implement it.
func (r *Result) Dispatch(flow *lockstate.Result, c *ssa.CallCommon) Dispatch {
	return r.a.dispatch(flow, c)
}

func (a *analyzer) dispatch(flow *lockstate.Result, c *ssa.CallCommon) Dispatch {
	r := a.res
	m := c.Method
	if ms, ok := r.FieldMethods(flow, c.Value, m); ok {
		var out []*types.Func
		for _, fn := range ms {
			if obj := FuncObject(fn); obj != nil {
				out = append(out, obj)
			}
		}
		return Dispatch{Methods: out}
	}
	t := c.Value.Type()
	name := func() string { return types.TypeString(t, types.RelativeTo(r.Pkg.Pkg)) }
	iface, _ := t.Underlying().(*types.Interface)
	if iface == nil || !closedInterface(t, iface, m) {
		return Dispatch{Open: name() + " can be implemented outside this module"}
	}
	if r.a.exposed(t, iface) {
		return Dispatch{Open: "the package's exported API accepts any " + name()}
	}
	impls := r.a.implementations(t, iface, m)
	if len(impls) == 0 {
		return Dispatch{Open: "no implementation of " + name() + " is visible here"}
	}
	return Dispatch{Methods: impls}
}

// Implementations returns the concrete methods, among the types of this
// package and every package it imports, that an interface method call c
// can run, whether or not other code could implement the interface too:
// for deadlocks, an implementation the program has is enough.
func (r *Result) Implementations(c *ssa.CallCommon) []*types.Func {
	iface, ok := c.Value.Type().Underlying().(*types.Interface)
	if !ok || c.Method == nil {
		return nil
	}
	return r.a.implementations(c.Value.Type(), iface, c.Method)
}

// closedInterface reports whether only the module that declares the
// interface t (of underlying type iface) can implement it.
func closedInterface(t types.Type, iface *types.Interface, m *types.Func) bool {
	if !m.Exported() {
		return true
	}
	for i := 0; i < iface.NumMethods(); i++ {
		if !iface.Method(i).Exported() {
			return true // sealed
		}
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	if !obj.Exported() {
		return true
	}
	return obj.Pkg() != nil && internalPath(obj.Pkg().Path())
}

// exposed reports whether the package's exported API accepts values of an
// unexported interface whose methods are all exported: other packages can
// then pass their own implementations (a constructor's parameter, an
// exported field). Sealed interfaces and interfaces of internal packages
// stay closed: only the module can implement them.
func (a *analyzer) exposed(t types.Type, iface *types.Interface) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Exported() || n.Obj().Pkg() != a.pkg.Pkg {
		return false
	}
	for i := 0; i < iface.NumMethods(); i++ {
		if !iface.Method(i).Exported() {
			return false
		}
	}
	return a.inAPI(n, true)
}

// internalPath reports whether a package path has an internal element: only
// its module (the tree rooted at internal's parent) can import it.
func internalPath(path string) bool {
	return path == "internal" || strings.HasPrefix(path, "internal/") ||
		strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}

// implementations returns the concrete methods that implement m of the
// interface t among the named types of this package and of every package
// it imports, directly or not.
func (a *analyzer) implementations(t types.Type, iface *types.Interface, m *types.Func) []*types.Func {
	key := t // named types are canonical; other interfaces are rare
	impls, ok := a.impls[key]
	if !ok {
		for _, named := range a.visibleTypes() {
			switch {
			case types.Implements(named, iface):
				impls = append(impls, named)
			case types.Implements(types.NewPointer(named), iface):
				impls = append(impls, types.NewPointer(named))
			}
		}
		a.impls[key] = impls
	}
	var out []*types.Func
	for _, recv := range impls {
		obj, _, _ := types.LookupFieldOrMethod(recv, true, m.Pkg(), m.Name())
		if fn, ok := obj.(*types.Func); ok {
			out = append(out, fn)
		}
	}
	return out
}

// visibleTypes returns the concrete, non-generic named types declared in
// this package and in every package it imports, directly or not.
func (a *analyzer) visibleTypes() []*types.Named {
	if a.concrete != nil {
		return a.concrete
	}
	a.concrete = []*types.Named{}
	for _, pkg := range a.visiblePackages() {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || srcname.InTest(a.pass.Fset, tn.Pos()) {
				continue // a test's fakes are not what the program runs
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
				continue
			}
			a.concrete = append(a.concrete, named)
		}
	}
	return a.concrete
}

// visiblePackages returns this package and every package it imports,
// directly or not. go vet analyses a package with its tests: the packages
// only its _test.go files import (test helpers and their fakes) are left
// out, since they are not what the program runs.
func (a *analyzer) visiblePackages() []*types.Package {
	if a.visible != nil {
		return a.visible
	}
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		a.visible = append(a.visible, p)
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	root := a.pkg.Pkg
	seen[root] = true
	a.visible = append(a.visible, root)
	prod := a.productionImports()
	for _, q := range root.Imports() {
		if prod == nil || prod[unvendored(q.Path())] {
			walk(q)
		}
	}
	return a.visible
}

// unvendored returns the import path a vendored package is imported by
// (std's vendor/golang.org/x/net/... is imported as golang.org/x/net/...).
func unvendored(path string) string {
	if i := strings.LastIndex(path, "vendor/"); i == 0 || i > 0 && path[i-1] == '/' {
		return path[i+len("vendor/"):]
	}
	return path
}

// productionImports returns the import paths of the package's non-test
// files, or nil when all its files are tests (an external test package).
func (a *analyzer) productionImports() map[string]bool {
	var prod map[string]bool
	for _, f := range a.pass.Files {
		if srcname.InTest(a.pass.Fset, f.Pos()) {
			continue
		}
		if prod == nil {
			prod = map[string]bool{}
		}
		for _, spec := range f.Imports {
			if path, err := strconv.Unquote(spec.Path.Value); err == nil {
				prod[path] = true
			}
		}
	}
	return prod
}

// SummaryOfMethod returns the summary of a concrete method, of this package
// or imported as a fact.
func (r *Result) SummaryOfMethod(obj *types.Func) *Summary {
	//lockaudit:ignore heldcall the driver's ImportObjectFact only reads its fact table: it never waits or calls back
	return r.a.summaryOfObj(obj)
}

func (a *analyzer) summaryOfObj(obj *types.Func) *Summary {
	if obj.Pkg() == a.pkg.Pkg {
		if fn := a.pkg.Prog.FuncValue(obj.Origin()); fn != nil {
			return a.summary(fn)
		}
		return nil
	}
	if s, ok := a.external[obj]; ok {
		return s
	}
	s := a.importSummary(obj.Origin())
	a.external[obj] = s
	return s
}
