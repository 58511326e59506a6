package lockorder

import (
	"fmt"
	"regexp"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// The lock-order graph spans packages, as Linux's lockdep spans the
// kernel: each package exports the class-level edges it takes (class B
// acquired while class A is held, directly or through callees in any
// package), and a package whose own edge closes a cycle with an edge of a
// package it imports reports it. The instances are known only by class
// across packages, so such a cycle is a note.

// An orderFact is a package's lock-order edges between lock classes.
type orderFact struct {
	Edges []classEdge
}

// A classEdge records that class To was taken while class From was held.
type classEdge struct {
	From, To         string
	FromRead, ToRead bool
	Where            string // "file.go:12", where To was taken
}

// AFact marks orderFact as an analysis fact.
func (*orderFact) AFact() {}

func (f *orderFact) String() string { return fmt.Sprintf("%d lock-order edges", len(f.Edges)) }

// exportEdges exports the package's class-level edges.
func (c *checker) exportEdges() {
	seen := map[classEdge]bool{}
	var out []classEdge
	for _, e := range c.edges {
		if e.from.Class == "" || e.to.Class == "" || e.from.Class == e.to.Class {
			continue
		}
		ce := classEdge{From: e.from.Class, To: e.to.Class, FromRead: e.from.Mode == lockstate.Read, ToRead: e.toMode == lockstate.Read,
			Where: c.pass.Pkg.Path() + " " + srcname.At(c.pass.Fset, e.pos)}
		if !seen[ce] {
			seen[ce] = true
			out = append(out, ce)
		}
	}
	if len(out) == 0 {
		return
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Where < out[j].Where })
	c.pass.ExportPackageFact(&orderFact{Edges: out})
}

// importedEdges returns the class-level edges of the packages this one
// imports, directly or not, by their (From, To) classes.
func (c *checker) importedEdges() map[[2]string][]classEdge {
	out := map[[2]string][]classEdge{}
	for _, pf := range c.pass.AllPackageFacts() {
		f, ok := pf.Fact.(*orderFact)
		if !ok || pf.Package == c.pass.Pkg {
			continue
		}
		for _, e := range f.Edges {
			k := [2]string{e.From, e.To}
			out[k] = append(out[k], e)
		}
	}
	return out
}

// reportPackageCycles reports the package's edges that close a cycle with
// an edge of an imported package: this package takes B while holding A,
// an imported one takes A while holding B.
func (c *checker) reportPackageCycles(reported map[int]bool) {
	imported := c.importedEdges()
	if len(imported) == 0 {
		return
	}
	for _, e := range c.edges {
		if e.from.Class == "" || e.to.Class == "" || e.from.Class == e.to.Class || reported[int(e.pos)] {
			continue
		}
		for _, b := range imported[[2]string{e.to.Class, e.from.Class}] {
			if e.from.Mode == lockstate.Read && e.toMode == lockstate.Read && b.FromRead && b.ToRead {
				continue // readers alone do not deadlock
			}
			reported[int(e.pos)] = true
			how := "locked"
			if e.via != "" {
				how = "locked through call of " + e.via
			}
			msg := fmt.Sprintf("%s %s while holding %s (%s); package %s takes %s while holding %s: lock-order inversion across packages",
				e.to.Name, how, e.from.Name, c.where(e.from), b.Where, shortClass(b.To), shortClass(b.From))
			c.reportLevel(e.pos, "order-cycle", msg, e.from, confidence.Note, "the cycle is proven only between the lock classes "+e.from.Class+" and "+e.to.Class)
			break
		}
	}
}

// shortClass drops the package path from a lock class:
// "(*example.com/pool.Conn).mu" is "(*pool.Conn).mu".
func shortClass(class string) string { return pathPrefix.ReplaceAllString(class, "") }

// pathPrefix matches the directories of an import path.
var pathPrefix = regexp.MustCompile(`([^\s(*/]+/)+`)

var _ analysis.Fact = (*orderFact)(nil)
