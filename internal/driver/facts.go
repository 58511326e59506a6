package driver

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// The in-process driver keeps the analyzers' facts in memory. A unit
// exports facts while it is analysed (keyed by object); when it is done
// they are frozen under the objects' paths (objectpath), which name the
// same object in every importer's view of the package, however that
// importer got its types (export data, here). Facts of an object that has
// no path (a local type, say) stay with their unit, as with go vet.
//
// A fact is shared by pointer among importers, as the x/tools checker
// shares it: facts are values the analyzers never change once exported.

// factKey names a frozen fact: the object's path ("" for a package fact)
// and the fact's type.
type factKey struct {
	obj objectpath.Path
	typ reflect.Type
}

// frozenFacts are the facts a finished unit exported.
type frozenFacts struct {
	facts map[factKey]analysis.Fact
}

// unitFacts are the facts of the unit being analysed: its own, by object,
// and the frozen facts of the units that supply each imported package path.
type unitFacts struct {
	pkg       *types.Package
	own       map[types.Object]map[reflect.Type]analysis.Fact // nil object: package facts
	providers map[string]*frozenFacts                         // by package path
	enc       objectpath.Encoder
}

func newUnitFacts(pkg *types.Package, providers map[string]*frozenFacts) *unitFacts {
	return &unitFacts{pkg: pkg, own: make(map[types.Object]map[reflect.Type]analysis.Fact), providers: providers}
}

// freeze returns the unit's facts for its importers.
func (s *unitFacts) freeze() *frozenFacts {
	out := &frozenFacts{facts: make(map[factKey]analysis.Fact)}
	for obj, m := range s.own {
		var p objectpath.Path
		if obj != nil {
			var err error
			if p, err = s.enc.For(obj); err != nil {
				continue // not addressable from other packages
			}
		}
		for t, f := range m {
			out.facts[factKey{p, t}] = f
		}
	}
	return out
}

// lookup returns the fact of type t for obj (nil: pkg's package fact).
func (s *unitFacts) lookup(pkg *types.Package, obj types.Object, t reflect.Type) analysis.Fact {
	if pkg == s.pkg {
		return s.own[obj][t]
	}
	prov := s.providers[pkg.Path()]
	if prov == nil {
		return nil
	}
	var p objectpath.Path
	if obj != nil {
		var err error
		if p, err = s.enc.For(obj); err != nil {
			return nil
		}
	}
	return prov.facts[factKey{p, t}]
}

// copyFact sets *ptr to the fact f of the same type.
func copyFact(ptr, f analysis.Fact) {
	reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
}

func (s *unitFacts) importObjectFact(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("nil object given to ImportObjectFact")
	}
	if obj.Pkg() == nil {
		return false // a universe object
	}
	f := s.lookup(obj.Pkg(), obj, reflect.TypeOf(ptr))
	if f == nil {
		return false
	}
	copyFact(ptr, f)
	return true
}

func (s *unitFacts) exportObjectFact(a *analysis.Analyzer, obj types.Object, f analysis.Fact) {
	if obj.Pkg() != s.pkg {
		panic(fmt.Sprintf("%s: fact for %s exported by a package (%s) other than its own", a.Name, obj, s.pkg.Path()))
	}
	s.put(obj, f)
}

func (s *unitFacts) put(obj types.Object, f analysis.Fact) {
	m := s.own[obj]
	if m == nil {
		m = make(map[reflect.Type]analysis.Fact)
		s.own[obj] = m
	}
	m[reflect.TypeOf(f)] = f
}

func (s *unitFacts) importPackageFact(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("nil package given to ImportPackageFact")
	}
	f := s.lookup(pkg, nil, reflect.TypeOf(ptr))
	if f == nil {
		return false
	}
	copyFact(ptr, f)
	return true
}

// visible returns the packages this unit's types reach, itself first, then
// by path: the packages whose facts the analyzers can see.
func (s *unitFacts) visible() []*types.Package {
	seen := map[*types.Package]bool{s.pkg: true}
	var out []*types.Package
	var walk func(ps []*types.Package)
	walk = func(ps []*types.Package) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
				walk(p.Imports())
			}
		}
	}
	walk(s.pkg.Imports())
	slices.SortFunc(out, func(a, b *types.Package) int { return strings.Compare(a.Path(), b.Path()) })
	return append([]*types.Package{s.pkg}, out...)
}

func (s *unitFacts) allPackageFacts(filter map[reflect.Type]bool) []analysis.PackageFact {
	var out []analysis.PackageFact
	for _, pkg := range s.visible() {
		for t := range filter {
			if f := s.lookup(pkg, nil, t); f != nil {
				out = append(out, analysis.PackageFact{Package: pkg, Fact: f})
			}
		}
	}
	sortFacts(out, func(f analysis.PackageFact) (string, analysis.Fact) { return f.Package.Path(), f.Fact })
	return out
}

func (s *unitFacts) allObjectFacts(filter map[reflect.Type]bool) []analysis.ObjectFact {
	var out []analysis.ObjectFact
	for obj, m := range s.own {
		for t, f := range m {
			if obj != nil && filter[t] {
				out = append(out, analysis.ObjectFact{Object: obj, Fact: f})
			}
		}
	}
	for _, pkg := range s.visible()[1:] {
		prov := s.providers[pkg.Path()]
		if prov == nil {
			continue
		}
		for k, f := range prov.facts {
			if k.obj == "" || !filter[k.typ] {
				continue
			}
			if obj, err := objectpath.Object(pkg, k.obj); err == nil {
				out = append(out, analysis.ObjectFact{Object: obj, Fact: f})
			}
		}
	}
	sortFacts(out, func(f analysis.ObjectFact) (string, analysis.Fact) {
		return f.Object.Pkg().Path() + "." + types.ObjectString(f.Object, nil), f.Fact
	})
	return out
}

// sortFacts orders facts by their object's name, then their type, so that
// an analyzer that walks them sees the same order every run.
func sortFacts[T any](facts []T, key func(T) (string, analysis.Fact)) {
	slices.SortStableFunc(facts, func(a, b T) int {
		ka, fa := key(a)
		kb, fb := key(b)
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		return strings.Compare(reflect.TypeOf(fa).String(), reflect.TypeOf(fb).String())
	})
}
