package catalog

import (
	"go/importer"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	c := Default()
	if err := c.ParseList("example.com/db.(*Client).Query=db, example.com/store.Flush=file"); err != nil {
		t.Fatal(err)
	}
	entries := strings.Join(c.Entries(), "\n")
	for _, want := range []string{"example.com/db.(*Client).Query=db", "example.com/store.Flush=file", "time.Sleep=sleep"} {
		if !strings.Contains(entries, want) {
			t.Errorf("entries lack %s", want)
		}
	}
	for _, bad := range []string{"example.com/x.F", "example.com/x.F=slow", "=net", "a b=net"} {
		if err := Default().ParseList(bad); err == nil {
			t.Errorf("ParseList(%q) succeeded, want an error", bad)
		}
	}
}

func TestBlockingAndCheap(t *testing.T) {
	netpkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import("net")
	if err != nil {
		t.Fatal(err)
	}
	conn := netpkg.Scope().Lookup("Conn").Type()
	method := func(name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(conn, false, netpkg, name)
		return obj.(*types.Func)
	}
	read, addr := method("Read"), method("RemoteAddr")

	c := Default()
	if kind, ok := c.Blocking(read); !ok || kind != Net {
		t.Errorf("Blocking((net.Conn).Read) = %q, %v; want net", kind, ok)
	}
	if Cheap(conn, read) {
		t.Error("(net.Conn).Read is cheap")
	}
	if !Cheap(conn, addr) {
		t.Error("(net.Conn).RemoteAddr is not cheap")
	}
	if kind, ok := c.Direct(read); !ok || kind != Net {
		t.Errorf("Direct((net.Conn).Read) = %q, %v; want net", kind, ok)
	}
}

func TestFlag(t *testing.T) {
	f := new(Extra)
	if err := f.Set("example.com/q.(*Queue).Pop=wait"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("example.com/q.Bad=nope"); err == nil {
		t.Error("Set accepted an unknown category")
	}
	if got := f.String(); got != "example.com/q.(*Queue).Pop=wait" {
		t.Errorf("String() = %q", got)
	}
}

func TestPureByRole(t *testing.T) {
	pkg := types.NewPackage("example.com/trie", "trie")
	iface := func(name, method string) (*types.Named, *types.Func) {
		sig := types.NewSignatureType(nil, nil, nil, nil, nil, false)
		m := types.NewFunc(token.NoPos, pkg, method, sig)
		it := types.NewInterfaceType([]*types.Func{m}, nil).Complete()
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), it, nil), m
	}
	for _, tc := range []struct {
		iface, method string
		cheap         bool
	}{
		{"Hasher", "HashNode", true},
		{"KeyHasher", "Sum", true},
		{"Comparer", "Compare3", true},
		{"RowComparator", "Order", true},
		{"Clock", "Sleep", false},
		{"HasherFactory2", "Build", false},
		{"NodeSink", "Visit", false},
	} {
		named, m := iface(tc.iface, tc.method)
		if got := Cheap(named, m); got != tc.cheap {
			t.Errorf("Cheap(%s.%s) = %v, want %v", tc.iface, tc.method, got, tc.cheap)
		}
	}
}

func TestSizerFunc(t *testing.T) {
	pkg := types.NewPackage("example.com/lru", "lru")
	param := func(t types.Type) *types.Var { return types.NewParam(token.NoPos, pkg, "", t) }
	sig := func(result types.Type, params ...types.Type) *types.Signature {
		var ps []*types.Var
		for _, p := range params {
			ps = append(ps, param(p))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(param(result)), false)
	}
	str, integer, i64 := types.Typ[types.String], types.Typ[types.Int], types.Typ[types.Int64]
	errType := types.Universe.Lookup("error").Type()
	for _, tc := range []struct {
		name  string
		t     types.Type
		cheap bool
	}{
		{"size", sig(integer, str, str), true},     // an LRU's size func(K, V) int
		{"Cost", sig(i64, str), true},              // a cost func(V) int64
		{"weigher", sig(integer, str, str), true},  // a weigher
		{"size", sig(errType, str), false},         // not a measurement
		{"onEvict", sig(integer, str, str), false}, // a hook, whatever it returns
		{"sizeOf", sig(types.Typ[types.Float64], str), false},
	} {
		if got := SizerFunc(tc.name, tc.t); got != tc.cheap {
			t.Errorf("SizerFunc(%s, %s) = %v, want %v", tc.name, tc.t, got, tc.cheap)
		}
	}
}
