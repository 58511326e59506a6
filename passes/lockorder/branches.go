package lockorder

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// SSA has no instruction for a break, continue or goto: the statement
// becomes an edge of the control-flow graph. A finding about what an edge
// carries (a lock a continue keeps held) is reported at the statement,
// found in the syntax: a branch statement after the last source position
// the edge's block executes, when that position is in the statement's
// reach (the condition of its if, the case of its clause, or one of the
// statements before it in its block) and nothing runs after it on the
// way (the statements between run no instruction).

// A branchStmt is a break, continue or goto statement with the source
// ranges from which control can reach it: its block's statements before
// it, and the header (if condition, case list) that chooses the block.
type branchStmt struct {
	stmt               *ast.BranchStmt
	before             []ast.Stmt // the statements before it in its block
	listStart          token.Pos  // the start of its block's statements
	headStart, headEnd token.Pos  // the header that chooses its block, if any
}

// A branchIndex holds one function's branch statements and the source
// positions of its instructions, both sorted.
type branchIndex struct {
	fn       *ssa.Function
	branches []branchStmt
	instrs   []token.Pos
}

// branchOf returns the break, continue or goto statement that makes the
// edge leaving block p, or nil when the edge is not one (control falls
// through the end of a block, a loop body's end) or it cannot be told.
func (c *checker) branchOf(p *ssa.BasicBlock) *ast.BranchStmt {
	idx := c.branchIndex(p.Parent())
	if len(idx.branches) == 0 {
		return nil
	}
	x := token.NoPos
	for b := p; b != nil && !x.IsValid(); b = b.Idom() {
		for _, instr := range b.Instrs {
			if pos := instr.Pos(); pos > x {
				x = pos
			}
		}
	}
	if !x.IsValid() {
		return nil
	}
	i, _ := slices.BinarySearchFunc(idx.branches, x, func(b branchStmt, x token.Pos) int { return int(b.stmt.Pos()) - int(x) })
	for ; i < len(idx.branches); i++ {
		br := idx.branches[i]
		// Where the statements that run on the way to it start: after
		// the statement of its block that holds x, or at the block's
		// start when x is in the header.
		from := token.NoPos
		if br.headStart <= x && x < br.headEnd {
			from = br.listStart
		}
		for _, st := range br.before {
			if st.Pos() <= x && x < st.End() {
				from = st.End()
			}
		}
		if !from.IsValid() {
			continue // x is out of its reach: a later branch may be in reach
		}
		j, _ := slices.BinarySearch(idx.instrs, from)
		if j < len(idx.instrs) && idx.instrs[j] < br.stmt.Pos() {
			continue // something runs on the way: another path's branch
		}
		return br.stmt
	}
	return nil
}

// branchIndex returns the branch statements and instruction positions of
// fn, computed once per function.
func (c *checker) branchIndex(fn *ssa.Function) *branchIndex {
	if c.branches != nil && c.branches.fn == fn {
		return c.branches
	}
	idx := &branchIndex{fn: fn}
	c.branches = idx
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if pos := instr.Pos(); pos.IsValid() {
				idx.instrs = append(idx.instrs, pos)
			}
		}
	}
	slices.Sort(idx.instrs)
	var body *ast.BlockStmt
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		body = s.Body
	case *ast.FuncLit:
		body = s.Body
	}
	if body != nil {
		idx.branches = collectBranches(body)
	}
	return idx
}

// collectBranches returns the branch statements of a function body, in
// source order, leaving out those of the func literals in it.
func collectBranches(body *ast.BlockStmt) []branchStmt {
	var out []branchStmt
	var list func(stmts []ast.Stmt, listStart, headStart, headEnd token.Pos)
	var stmt func(s ast.Stmt)
	var clauses func(body *ast.BlockStmt, start token.Pos)
	list = func(stmts []ast.Stmt, listStart, headStart, headEnd token.Pos) {
		for i, s := range stmts {
			if br, ok := s.(*ast.BranchStmt); ok && br.Tok != token.FALLTHROUGH {
				out = append(out, branchStmt{stmt: br, before: stmts[:i], listStart: listStart, headStart: headStart, headEnd: headEnd})
				continue
			}
			stmt(s)
		}
	}
	block := func(b *ast.BlockStmt, headStart, headEnd token.Pos) {
		if b != nil {
			list(b.List, b.Lbrace, headStart, headEnd)
		}
	}
	stmt = func(s ast.Stmt) {
		switch s := s.(type) {
		case *ast.BlockStmt:
			block(s, token.NoPos, token.NoPos)
		case *ast.LabeledStmt:
			if br, ok := s.Stmt.(*ast.BranchStmt); ok {
				list([]ast.Stmt{br}, s.Pos(), token.NoPos, token.NoPos)
				return
			}
			stmt(s.Stmt)
		case *ast.IfStmt:
			block(s.Body, s.Pos(), s.Body.Lbrace)
			switch e := s.Else.(type) {
			case *ast.BlockStmt:
				block(e, s.Pos(), s.Body.Lbrace)
			case *ast.IfStmt:
				stmt(e)
			}
		case *ast.ForStmt:
			block(s.Body, s.Pos(), s.Body.Lbrace)
		case *ast.RangeStmt:
			block(s.Body, s.Pos(), s.Body.Lbrace)
		case *ast.SwitchStmt:
			clauses(s.Body, s.Pos())
		case *ast.TypeSwitchStmt:
			clauses(s.Body, s.Pos())
		case *ast.SelectStmt:
			clauses(s.Body, s.Pos())
		}
	}
	clauses = func(body *ast.BlockStmt, start token.Pos) {
		for _, cl := range body.List {
			switch cl := cl.(type) {
			case *ast.CaseClause:
				// This clause's case list, and the switch's header.
				list(cl.Body, cl.Case, start, body.Lbrace)
			case *ast.CommClause:
				list(cl.Body, cl.Case, start, body.Lbrace)
			}
		}
	}
	block(body, token.NoPos, token.NoPos)
	slices.SortFunc(out, func(a, b branchStmt) int { return int(a.stmt.Pos()) - int(b.stmt.Pos()) })
	return out
}
