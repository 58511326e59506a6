package summary

import (
	"go/importer"
	"go/types"
	"testing"
)

// TestExportedMethod checks ExportedMethod against MethodSet.Lookup on the
// types of a few standard packages, whose method sets mix exported and
// unexported methods.
func TestExportedMethod(t *testing.T) {
	imp := importer.Default()
	names := []string{"Write", "WriteString", "Read", "ReadFrom", "WriteTo", "String", "Error", "Close", "Len", "Missing"}
	checked, found := 0, 0
	for _, path := range []string{"os", "bytes", "bufio", "net", "strings", "sync"} {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("importing %s: %v", path, err)
		}
		scope := pkg.Scope()
		for _, n := range scope.Names() {
			tn, ok := scope.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			for _, typ := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				ms := types.NewMethodSet(typ)
				for _, name := range names {
					want := ms.Lookup(nil, name)
					got := ExportedMethod(ms, name)
					if got != want {
						t.Errorf("%s: ExportedMethod(%q) = %v, Lookup = %v", typ, name, got, want)
					}
					checked++
					if want != nil {
						found++
					}
				}
			}
		}
	}
	if found < 50 || checked-found < 50 {
		t.Fatalf("%d lookups, %d found: too few of one kind", checked, found)
	}
}
