// Package srcname names things as the source writes them: the engine names
// locks from SSA, where a lock reached through a local variable holding a
// call result (sh := c.shardFor(k); sh.mu.Lock()) has no name of its own.
package srcname

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Calls indexes a package's call expressions by the position of their
// opening parenthesis, which is the position SSA gives a call.
type Calls struct {
	pass    *analysis.Pass
	calls   map[token.Pos]*ast.CallExpr // built on first use
	selects []*ast.SelectStmt           // selects with one case, built on first use
}

// New returns an index of pass's calls.
func New(pass *analysis.Pass) *Calls { return &Calls{pass: pass} }

// At returns the call expression whose Lparen is at pos, or nil.
func (c *Calls) At(pos token.Pos) *ast.CallExpr {
	if c.calls == nil {
		c.calls = map[token.Pos]*ast.CallExpr{}
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if ce, ok := n.(*ast.CallExpr); ok {
					c.calls[ce.Lparen] = ce
				}
				return true
			})
		}
	}
	return c.calls[pos]
}

// SingleSelect returns the position of the select keyword when pos is in
// the communication of a select with one case and no default: the
// compiler turns it into a plain send or receive, but the user wrote a
// select.
func (c *Calls) SingleSelect(pos token.Pos) (token.Pos, bool) {
	if c.selects == nil {
		c.selects = []*ast.SelectStmt{}
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectStmt); ok && len(s.Body.List) == 1 {
					if cc, ok := s.Body.List[0].(*ast.CommClause); ok && cc.Comm != nil {
						c.selects = append(c.selects, s)
					}
				}
				return true
			})
		}
	}
	for _, s := range c.selects {
		comm := s.Body.List[0].(*ast.CommClause).Comm
		if comm.Pos() <= pos && pos < comm.End() {
			return s.Select, true
		}
	}
	return token.NoPos, false
}

// LockReceiver returns the receiver of the Lock, RLock, TryLock, TryRLock,
// Unlock or RUnlock call at pos as written ("sh.mu"), and whether there is
// one.
func (c *Calls) LockReceiver(pos token.Pos) (string, bool) {
	ce := c.At(pos)
	if ce == nil {
		return "", false
	}
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	switch sel.Sel.Name {
	case "Lock", "RLock", "TryLock", "TryRLock", "Unlock", "RUnlock":
		return types.ExprString(sel.X), true
	}
	return "", false
}

// At renders a position as its file's base name and line, "pool.go:41", the
// form findings use to point at a related place in the same package.
func At(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// InTest reports whether pos lies in a _test.go file.
func InTest(fset *token.FileSet, pos token.Pos) bool {
	return pos.IsValid() && strings.HasSuffix(fset.Position(pos).Filename, "_test.go")
}
