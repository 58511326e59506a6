package lockorder

import (
	"go/types"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestImportedEdgesOrder checks that the imported edges come out in the
// same order whatever order the driver hands the packages' facts over in.
func TestImportedEdgesOrder(t *testing.T) {
	self := types.NewPackage("example.com/dial", "dial")
	evict := types.NewPackage("example.com/evict", "evict")
	pool := types.NewPackage("example.com/pool", "pool")
	facts := []analysis.PackageFact{
		{Package: pool, Fact: &orderFact{Edges: []classEdge{
			{From: "locks.Reg", To: "locks.Conns", Where: "example.com/pool pool.go:40"},
		}}},
		{Package: evict, Fact: &orderFact{Edges: []classEdge{
			{From: "locks.Reg", To: "locks.Conns", Where: "example.com/evict evict.go:9"},
			{From: "locks.Conns", To: "locks.Idle", Where: "example.com/evict evict.go:21"},
		}}},
		{Package: self, Fact: &orderFact{Edges: []classEdge{
			{From: "locks.Conns", To: "locks.Reg", Where: "example.com/dial dial.go:13"},
		}}},
	}
	want := importedEdges(facts, self)
	if got := want[[2]string{"locks.Reg", "locks.Conns"}]; len(got) != 2 || got[0].Where != "example.com/evict evict.go:9" {
		t.Fatalf("Reg -> Conns edges %+v, want evict's first", got)
	}
	if _, ok := want[[2]string{"locks.Conns", "locks.Reg"}]; ok {
		t.Error("the package's own edges are among the imported ones")
	}
	reversed := []analysis.PackageFact{facts[2], facts[1], facts[0]}
	if got := importedEdges(reversed, self); !reflect.DeepEqual(got, want) {
		t.Errorf("facts in another order: %+v\nwant %+v", got, want)
	}
}
