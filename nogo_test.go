package lockaudit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit"
)

// Bazel's nogo generates a main that imports each analyzer package given in
// its deps and refers to <package>.Analyzer; go vet and golangci-lint also
// expect one analyzer per package. TestAnalyzerPackages checks from the
// source that every analyzer of Analyzers() lives in passes/<Name>, as a
// package-level var Analyzer whose Name is the package's last path element,
// and that Analyzers() refers to exactly those variables.
func TestAnalyzerPackages(t *testing.T) {
	const module = "github.com/lockaudit/lockaudit/"

	// The packages whose Analyzer Analyzers() returns, from lockaudit.go.
	fset := token.NewFileSet()
	root, err := parser.ParseFile(fset, "lockaudit.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	imports := make(map[string]string) // local name -> import path
	for _, spec := range root.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		name := filepath.Base(path)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		imports[name] = path
	}
	var referenced []string // import paths, in order
	for _, decl := range root.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "Analyzers" || fn.Recv != nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// Selectors of this module's packages: analysis.Analyzer in
			// the result type is not one.
			if id, ok := sel.X.(*ast.Ident); ok && strings.HasPrefix(imports[id.Name], module) {
				if sel.Sel.Name != "Analyzer" {
					t.Errorf("Analyzers() refers to %s.%s: nogo needs the package's Analyzer variable", id.Name, sel.Sel.Name)
				}
				referenced = append(referenced, imports[id.Name])
			}
			return true
		})
	}

	as := lockaudit.Analyzers()
	if len(referenced) != len(as) {
		t.Fatalf("Analyzers() returns %d analyzers but refers to %d package variables %v", len(as), len(referenced), referenced)
	}
	for i, a := range as {
		path := referenced[i]
		rel, ok := strings.CutPrefix(path, module)
		if !ok || filepath.Dir(rel) != "passes" || filepath.Base(rel) != a.Name {
			t.Errorf("analyzer %s comes from %s, want %spasses/%s", a.Name, path, module, a.Name)
			continue
		}
		if name, ok := analyzerVar(t, filepath.FromSlash(rel)); !ok {
			t.Errorf("%s has no package-level var Analyzer = &analysis.Analyzer{...}", path)
		} else if name != a.Name {
			t.Errorf("%s: Analyzer's Name is %q, want the package's last path element %q", path, name, a.Name)
		}
	}
}

// analyzerVar parses the non-test Go files of dir and returns the Name field
// of its package-level "var Analyzer = &analysis.Analyzer{...}".
func analyzerVar(t *testing.T, dir string) (name string, ok bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, isGen := decl.(*ast.GenDecl)
			if !isGen || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name != "Analyzer" || i >= len(vs.Values) {
						continue
					}
					u, isAddr := vs.Values[i].(*ast.UnaryExpr)
					if !isAddr || u.Op != token.AND {
						return "", false
					}
					lit, isLit := u.X.(*ast.CompositeLit)
					if !isLit || typeName(lit.Type) != "analysis.Analyzer" {
						return "", false
					}
					for _, elt := range lit.Elts {
						kv, isKV := elt.(*ast.KeyValueExpr)
						if key, _ := kv.Key.(*ast.Ident); isKV && key != nil && key.Name == "Name" {
							if bl, isStr := kv.Value.(*ast.BasicLit); isStr && bl.Kind == token.STRING {
								name, _ = strconv.Unquote(bl.Value)
							}
						}
					}
					return name, true
				}
			}
		}
	}
	return "", false
}

// typeName renders a composite literal's type expression as pkg.Name.
func typeName(e ast.Expr) string {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name + "." + sel.Sel.Name
		}
	}
	return ""
}
