package lockstate

import (
	"go/constant"
	"go/token"
	"go/types"
	"runtime"
	"testing"
	"time"
	"weak"
)

// TestEnumValuesLetTypesGo checks that the enum cache answers from its
// entry while the type lives, and drops the entry, without keeping the
// type alive, once nothing else holds it.
func TestEnumValuesLetTypesGo(t *testing.T) {
	key := func() weak.Pointer[types.TypeName] {
		pkg := types.NewPackage("example.com/cache", "cache")
		obj := types.NewTypeName(token.NoPos, pkg, "readType", nil)
		named := types.NewNamed(obj, types.Typ[types.Int], nil)
		pkg.Scope().Insert(obj)
		for i, name := range []string{"fromMemory", "fromStore"} {
			pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, name, named, constant.MakeInt64(int64(i))))
		}
		if got := enumConsts(named); len(got) != 2 {
			t.Fatalf("enumConsts = %v, want two values", got)
		}
		k := weak.Make(obj)
		if _, ok := enumValues.Load(k); !ok {
			t.Fatal("no cache entry while the type lives")
		}
		return k
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		_, cached := enumValues.Load(key)
		if key.Value() == nil && !cached {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s of collections: type alive %v, entry cached %v", key.Value() != nil, cached)
		}
		time.Sleep(time.Millisecond)
	}
}
