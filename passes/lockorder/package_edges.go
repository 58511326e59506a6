package lockorder

import (
	"fmt"
	"go/token"
	"go/types"
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
	// Related is set when the two instances are tied to each other (see
	// related): a cycle of related edges is a warning across packages too.
	Related bool
	// FromOwner and ToOwner name, for a lock that hangs off an owned
	// pointer field of a struct type of the exporting package (see
	// distinctOwners), that type: a lock of the same class hanging off
	// another type's owned field, in the importing package, is never it.
	FromOwner, ToOwner string
	// Path is the edge's path for a finding's related locations: where
	// From was taken, where To was (or the call leading to it) and the
	// calls down to the acquisition.
	Path []pathSite
}

// A pathSite is a site of an edge's path, with its position written out:
// token positions do not cross packages.
type pathSite struct {
	File      string
	Line, Col int
	Msg       string
}

// edgeKey identifies a classEdge without its path.
type edgeKey struct {
	From, To         string
	FromRead, ToRead bool
	Where            string
	Related          bool
}

// AFact marks orderFact as an analysis fact.
func (*orderFact) AFact() {}

func (f *orderFact) String() string { return fmt.Sprintf("%d lock-order edges", len(f.Edges)) }

// exportEdges exports the package's class-level edges.
func (c *checker) exportEdges() {
	seen := map[edgeKey]bool{}
	var out []classEdge
	for _, e := range c.edges {
		if e.from.Class == "" || e.to.Class == "" || e.from.Class == e.to.Class {
			continue
		}
		if c.inTest(e.pos) {
			continue // a test's orders are not the package's, for its importers
		}
		ce := classEdge{From: e.from.Class, To: e.to.Class, FromRead: e.from.Mode == lockstate.Read, ToRead: e.toMode == lockstate.Read,
			Where: c.pass.Pkg.Path() + " " + srcname.At(c.pass.Fset, e.pos), Related: e.related,
			FromOwner: c.ownerType(e.from.ID), ToOwner: c.ownerType(e.to)}
		k := edgeKey{ce.From, ce.To, ce.FromRead, ce.ToRead, ce.Where, ce.Related}
		if seen[k] {
			continue
		}
		seen[k] = true
		for _, st := range c.edgePath(e, c.chain(e), true) {
			p := c.pass.Fset.Position(st.pos)
			ce.Path = append(ce.Path, pathSite{File: p.Filename, Line: p.Line, Col: p.Column, Msg: st.msg})
		}
		out = append(out, ce)
	}
	if len(out) == 0 {
		return
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Where < out[j].Where })
	c.pass.ExportPackageFact(&orderFact{Edges: out})
}

// importedEdges returns the class-level edges of the packages this one
// imports, directly or not, by their (From, To) classes.
func (c *checker) importedEdges() map[[2]string][]classEdge {
	return importedEdges(c.pass.AllPackageFacts(), c.pass.Pkg)
}

// importedEdges groups the edges of the package facts of packages other
// than self by their (From, To) classes, each group in the order of the
// edges' sites: drivers hand the facts over in different orders (go vet's
// unitchecker in map order), and the edge a finding names must not
// depend on it.
func importedEdges(facts []analysis.PackageFact, self *types.Package) map[[2]string][]classEdge {
	out := map[[2]string][]classEdge{}
	for _, pf := range facts {
		f, ok := pf.Fact.(*orderFact)
		if !ok || pf.Package == self {
			continue
		}
		for _, e := range f.Edges {
			k := [2]string{e.From, e.To}
			out[k] = append(out[k], e)
		}
	}
	for _, es := range out {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Where < es[j].Where })
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
		b, ok := c.oppositeImported(e, imported[[2]string{e.to.Class, e.from.Class}])
		if !ok {
			continue
		}
		reported[int(e.pos)] = true
		how := "locked" + throughCall(e.via, e.deferred)
		msg := fmt.Sprintf("%s %s while holding %s (%s); package %s takes %s while holding %s: lock-order inversion across packages",
			e.to.Name, how, e.from.Name, c.where(e.from), b.Where, shortClass(b.To), shortClass(b.From))
		sites := c.edgePath(e, c.chain(e), false)
		for _, st := range b.Path {
			sites = append(sites, site{pos: c.posOf(st.File, st.Line, st.Col), msg: st.Msg})
		}
		if e.related && b.Related && !c.distinctAcross(e, b) {
			c.reportCycle(e, msg, sites, confidence.Warning, "")
			continue
		}
		c.reportCycle(e, msg, sites, confidence.Note, "the cycle is proven only between the lock classes "+e.from.Class+" and "+e.to.Class)
	}
}

// oppositeImported finds an imported edge that, with e, can deadlock: not
// both reads. A related edge whose locks can be e's is preferred.
func (c *checker) oppositeImported(e edge, back []classEdge) (classEdge, bool) {
	var found classEdge
	ok := false
	for _, b := range back {
		if e.from.Mode == lockstate.Read && e.toMode == lockstate.Read && b.FromRead && b.ToRead {
			continue // readers alone do not deadlock
		}
		if !ok || (c.sameAcross(e, b) && !c.sameAcross(e, found)) {
			found, ok = b, true
		}
	}
	return found, ok
}

// sameAcross reports whether the imported edge b is related and its locks
// can be those of e.
func (c *checker) sameAcross(e edge, b classEdge) bool {
	return b.Related && !c.distinctAcross(e, b)
}

// distinctAcross reports whether the cycle of e and the imported edge b
// joins two locks of one class that can never be the same: each hangs
// off an owned pointer field of a different struct type (a vector
// index's posting locks and its graph's node locks, both a
// *ShardedRWLocks of a third package that each constructor makes).
func (c *checker) distinctAcross(e edge, b classEdge) bool {
	if o := c.ownerType(e.to); o != "" && b.FromOwner != "" && o != b.FromOwner {
		return true
	}
	o := c.ownerType(e.from.ID)
	return o != "" && b.ToOwner != "" && o != b.ToOwner
}

// ownerType names the struct type of the package whose owned pointer
// field lock id hangs off, or "".
func (c *checker) ownerType(id lockstate.ID) string {
	t, f, ok := c.owner(id)
	if !ok || !c.res.OwnedPointerField(t, f) {
		return ""
	}
	return t.Obj().Pkg().Path() + "." + t.Obj().Name()
}

// posOf returns a position for line and column of a file of another
// package: the file as the file set holds it (parsed, or as export data
// describes it), or else a stand-in file with that name, so that the
// position prints as the file's line and column.
func (c *checker) posOf(file string, line, col int) token.Pos {
	if file == "" || line <= 0 {
		return token.NoPos
	}
	if c.files == nil {
		c.files = map[string]*token.File{}
		c.pass.Fset.Iterate(func(f *token.File) bool {
			if o := c.files[f.Name()]; o == nil || f.LineCount() > o.LineCount() {
				c.files[f.Name()] = f
			}
			return true
		})
	}
	f := c.files[file]
	if f == nil || f.LineCount() < line {
		// Lines of a fixed width, as many as the line needs.
		const width = 1 << 10
		f = c.pass.Fset.AddFile(file, -1, (line+1)*width)
		lines := make([]int, line+1)
		for i := range lines {
			lines[i] = i * width
		}
		f.SetLines(lines)
		c.files[file] = f
	}
	start := f.LineStart(line)
	end := token.Pos(f.Base() + f.Size())
	if line < f.LineCount() {
		end = f.LineStart(line + 1)
	}
	if col < 1 {
		col = 1
	}
	if p := start + token.Pos(col-1); p < end {
		return p
	}
	return start
}

// shortClass drops the package path from a lock class:
// "(*example.com/pool.Conn).mu" is "(*pool.Conn).mu".
func shortClass(class string) string { return pathPrefix.ReplaceAllString(class, "") }

// pathPrefix matches the directories of an import path.
var pathPrefix = regexp.MustCompile(`([^\s(*/]+/)+`)

var _ analysis.Fact = (*orderFact)(nil)
