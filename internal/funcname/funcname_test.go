package funcname

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestDecl(t *testing.T) {
	src := `package p
func F() {}
func (c Cache) Get() {}
func (c *Cache) Put() {}
func (c *Map[K, V]) Load() {}
func (m *(Pair[K])) Swap() {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"F", "(Cache).Get", "(*Cache).Put", "(*Map).Load", "(*Pair).Swap"}
	for i, d := range f.Decls {
		if got := Decl(d.(*ast.FuncDecl)); got != want[i] {
			t.Errorf("Decl #%d = %q, want %q", i, got, want[i])
		}
	}
}
