package heldcall

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
	"github.com/lockaudit/lockaudit/passes/internal/suppress"
)

// moveUnlock offers to move an explicit Unlock above the offending call when
// that is provably safe:
//
//   - the call is a statement of its own, immediately followed (no comment
//     between) by the Unlock of the one lock held, which is not released by
//     a defer and was taken in this function;
//   - the call's function and arguments are local variables or constants,
//     and the arguments are of basic type, so that evaluating them touches no
//     state the lock guards and hands the callee no reference into it.
//
// The callee then runs with the lock released, which is what the finding
// asks for.
func (c *checker) moveUnlock(f *summary.Func, instr ssa.Instruction, fd *finding) (analysis.SuggestedFix, bool) {
	if len(fd.held) != 1 || fd.held[0].Deferred || fd.held[0].Inherited {
		return analysis.SuggestedFix{}, false
	}
	call, ok := instr.(*ssa.Call)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	file := suppress.File(c.pass, call.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.Pos())
	var expr *ast.CallExpr
	var stmt *ast.ExprStmt
	var block *ast.BlockStmt
	for i, n := range path {
		if ce, ok := n.(*ast.CallExpr); ok && expr == nil && ce.Lparen == call.Pos() {
			expr = ce
			if i+2 < len(path) {
				stmt, _ = path[i+1].(*ast.ExprStmt)
				block, _ = path[i+2].(*ast.BlockStmt)
			}
			break
		}
	}
	if expr == nil || stmt == nil || block == nil || !c.localOperands(expr) {
		return analysis.SuggestedFix{}, false
	}
	next := nextStmt(block, stmt)
	if next == nil || commentBetween(file, stmt.End(), next.Pos()) {
		return analysis.SuggestedFix{}, false
	}
	unlock, ok := next.(*ast.ExprStmt)
	if !ok || !c.releases(f, unlock, fd.held[0]) {
		return analysis.SuggestedFix{}, false
	}
	var callText, unlockText bytes.Buffer
	if format.Node(&callText, c.pass.Fset, stmt) != nil || format.Node(&unlockText, c.pass.Fset, unlock) != nil {
		return analysis.SuggestedFix{}, false
	}
	// Keep the layout: the Unlock takes the call's place and the call
	// takes the Unlock's, separators untouched.
	return analysis.SuggestedFix{
		Message: "release " + fd.held[0].Name + " before the call",
		TextEdits: []analysis.TextEdit{
			{Pos: stmt.Pos(), End: stmt.End(), NewText: unlockText.Bytes()},
			{Pos: unlock.Pos(), End: unlock.End(), NewText: callText.Bytes()},
		},
	}, true
}

// localOperands reports whether the call's function and arguments are local
// variables or constants, the arguments of basic type.
func (c *checker) localOperands(call *ast.CallExpr) bool {
	if !c.isLocal(call.Fun) {
		return false
	}
	for _, arg := range call.Args {
		tv, ok := c.pass.TypesInfo.Types[arg]
		if !ok {
			return false
		}
		if tv.Value != nil {
			continue // a constant
		}
		if _, basic := tv.Type.Underlying().(*types.Basic); !basic || !c.isLocal(arg) {
			return false
		}
	}
	return true
}

// isLocal reports whether e is an identifier of a variable declared inside a
// function (not a package-level variable).
func (c *checker) isLocal(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	return ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

// releases reports whether stmt is a call that releases exactly h.
func (c *checker) releases(f *summary.Func, stmt *ast.ExprStmt, h lockstate.Held) bool {
	ce, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Pos() != ce.Lparen {
				continue
			}
			op := lockstate.OpOf(call.Common())
			return op.Kind == lockstate.Release && f.Flow.IDOf(op.Recv).Key == h.Key
		}
	}
	return false
}

func nextStmt(block *ast.BlockStmt, stmt ast.Stmt) ast.Stmt {
	for i, s := range block.List {
		if s == stmt && i+1 < len(block.List) {
			return block.List[i+1]
		}
	}
	return nil
}

func commentBetween(file *ast.File, from, to token.Pos) bool {
	for _, g := range file.Comments {
		if g.Pos() < to && g.End() > from {
			return true
		}
	}
	return false
}
