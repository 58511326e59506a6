// Package funcname names function declarations the way lockaudit's reports
// do: F, (T).M or (*T).M, type parameters of the receiver omitted. Both the
// check command's "function" field and the profiler's join use it, so the
// two always agree.
package funcname

import "go/ast"

// Decl names a function declaration as F, (T).M or (*T).M.
func Decl(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	for {
		switch x := t.(type) {
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.StarExpr:
			star = "*"
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		}
		break
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	return "(" + star + recv + ")." + fd.Name.Name
}
