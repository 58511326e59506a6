// Package links is a syntax tree whose rewriters link nodes to their
// parents through mutually recursive calls, as generated AST code does.
package links

type node struct {
	parent *node
	kids   []*node
	expr   *expr
}

type expr struct {
	owner *node
	left  *expr
	right *expr
	inner *node
}

// adopt links child below parent: parent escapes as far as child does.
func adopt(parent, child *node) { child.parent = parent }

// adoptExpr links an expression below its owner.
func adoptExpr(owner *node, e *expr) {
	if e == nil {
		return
	}
	e.owner = owner
	adoptExpr(owner, e.left)
	adoptExpr(owner, e.right)
	if e.inner != nil {
		adopt(owner, e.inner)
		rewrite(owner, e.inner)
	}
}

// rewrite relinks a subtree, twice over each child and its expression.
func rewrite(parent, n *node) {
	adopt(parent, n)
	adopt(parent, n)
	for _, k := range n.kids {
		adopt(n, k)
		rewrite(n, k)
	}
	adoptExpr(n, n.expr)
	adoptExpr(parent, n.expr)
}
