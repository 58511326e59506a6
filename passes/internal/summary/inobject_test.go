package summary

import (
	"go/token"
	"go/types"
	"testing"
)

// TestInObject checks which lock paths below a captured object lie inside
// it: fields and array elements held by value do, steps through pointers,
// slices, maps and interfaces lead to other objects.
func TestInObject(t *testing.T) {
	pkg := types.NewPackage("example.com/logs", "logs")
	field := func(name string, typ types.Type) *types.Var {
		return types.NewField(token.NoPos, pkg, name, typ, false)
	}
	mutex := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Mutex", nil), types.NewStruct(nil, nil), nil)
	shard := types.NewStruct([]*types.Var{field("mu", mutex)}, nil)
	rotated := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "rotatedLog", nil),
		types.NewStruct([]*types.Var{field("fsopMu", mutex)}, nil), nil)
	follower := types.NewStruct([]*types.Var{
		field("mu", mutex),
		field("file", types.NewPointer(rotated)),
		field("inline", rotated),
		field("parts", types.NewArray(shard, 4)),
		field("segs", types.NewSlice(shard)),
		field("byKey", types.NewMap(types.Typ[types.String], types.NewPointer(shard))),
		field("pmu", types.NewPointer(mutex)),
	}, nil)
	obj := types.NewPointer(follower)
	for _, tc := range []struct {
		path string
		want bool
	}{
		{".mu", true},
		{".inline.fsopMu", true},
		{".parts[0].mu", true},
		{".parts[p1.idx[v:t3]].mu", true},
		{".file.fsopMu", false},
		{".segs[i].mu", false},
		{".byKey[k].mu", false},
		{".pmu", false},
		{".missing", false},
		{".parts[0.mu", false},
	} {
		if got := inObject(obj, tc.path); got != tc.want {
			t.Errorf("inObject(*follower, %q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if inObject(follower, ".mu") {
		t.Errorf("inObject of a struct value, not a pointer to one, = true, want false")
	}
}
