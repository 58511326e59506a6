package summary

import (
	"bytes"
	"encoding/gob"
	"go/token"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// gobFact is how unitchecker writes a fact: in an interface field.
type gobFact struct {
	Object string
	Fact   analysis.Fact
}

func init() { gob.Register(new(FuncFact)) }

// roundTrip writes facts as unitchecker does and reads them back.
func roundTrip(t *testing.T, facts []*FuncFact) ([]*FuncFact, []byte) {
	t.Helper()
	var in []gobFact
	for _, f := range facts {
		in = append(in, gobFact{Object: "x", Fact: f})
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(buf.Bytes())
	var out []gobFact
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	var got []*FuncFact
	for _, g := range out {
		got = append(got, g.Fact.(*FuncFact))
	}
	return got, data
}

// normalized is s as gob carried it before the compact encoding: no
// version counter, nil for empty slices.
func normalized(s *Summary) Summary {
	nilIfEmpty := func(v reflect.Value) {
		if v.Kind() == reflect.Slice && v.Len() == 0 {
			v.Set(reflect.Zero(v.Type()))
		}
	}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			nilIfEmpty(v)
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	out := *s
	out.version = 0
	// Copy what is walked, so that s is not changed.
	out.Effects = cloneEffects(out.Effects)
	out.Takes = cloneEffects(out.Takes)
	blocks := make([]*Reason, len(out.Blocks))
	for i, b := range out.Blocks {
		c := *b
		blocks[i] = &c
	}
	out.Blocks = blocks
	for _, r := range []**Reason{&out.Callback, &out.Unknown} {
		if *r != nil {
			c := **r
			*r = &c
		}
	}
	walk(reflect.ValueOf(&out))
	return out
}

func cloneEffects(es []lockstate.Effect) []lockstate.Effect {
	return append([]lockstate.Effect(nil), es...)
}

func checkRoundTrip(t *testing.T, facts []*FuncFact) {
	t.Helper()
	got, data := roundTrip(t, facts)
	if len(got) != len(facts) {
		t.Fatalf("%d facts read back, want %d", len(got), len(facts))
	}
	for i, g := range got {
		if g.raw == nil {
			t.Fatalf("fact %d decoded eagerly", i)
		}
		s, err := g.decoded()
		if err != nil {
			t.Fatalf("fact %d: %v", i, err)
		}
		if want, got := normalized(&facts[i].Summary), normalized(s); !reflect.DeepEqual(got, want) {
			t.Errorf("fact %d changed in the round trip:\ngot  %+v\nwant %+v", i, got, want)
		}
		if g.String() != facts[i].String() {
			t.Errorf("fact %d: String %q, want %q", i, g.String(), facts[i].String())
		}
	}
	// Facts read back and not decoded are written again as they came:
	// unitchecker re-exports the dependencies' facts.
	_, again := roundTrip(t, got)
	if !bytes.Equal(again, data) {
		t.Errorf("re-exported facts differ from the facts read")
	}
}

// TestFactRoundTrip round-trips summaries that use every field, with values
// the shortcuts of the encoding must not mangle: keys that do not end in
// their path, negative parameters, shared and distinct strings.
func TestFactRoundTrip(t *testing.T) {
	recv := lockstate.ID{Key: "p0.in.mu", Class: "(*pkg.half).mu", Name: "c.in.mu", Root: lockstate.RootParam,
		Path: ".in.mu", NamePath: ".in.mu", Full: "(*pkg.Conn).in.mu", FullPath: ".in.mu"}
	global := lockstate.ID{Key: "g:pkg.reg.mu", Class: "(*pkg.registry).mu", Name: "reg.mu", Root: lockstate.RootGlobal,
		Path: ".mu", NamePath: ".mu", Full: "pkg.reg.mu", FullPath: ".mu"}
	wrapped := lockstate.ID{Key: "v:t3[p1]", Class: "", Name: "shards[key]", Root: lockstate.RootFree, RootIndex: 2,
		Path: "[p1]", NamePath: "[key]", Full: "", FullPath: "[]", Arg: 2, ArgPath: ".shards[i]"}
	deep := lockstate.ID{Key: "p0.common.parent.parent.mu", Class: "(*example.com/a/b.common).mu", Name: "t.common.parent.parent.mu", Root: lockstate.RootParam,
		Path: ".common.parent.parent.mu", NamePath: ".common.parent.parent.mu", Full: "(*example.com/a/b.T).common.parent.parent.mu", FullPath: ".common.parent.parent.mu"}
	when := []lockstate.Cond{
		{Param: 1, Path: ".closed", Value: true},
		{Param: -2, Nil: true, Value: true},
		{Param: 0, Path: ".n", Cmp: token.GTR, K: -1 << 40, Value: false},
	}
	full := &FuncFact{Summary: Summary{
		Effects: []lockstate.Effect{
			{Lock: recv, Mode: lockstate.Read},
			{Lock: deep, Forever: true},
			{Lock: global, Release: true, Returned: true},
			{Lock: wrapped, When: when[:1], Outside: []string{"(*pkg.Conn).mu"}},
		},
		Blocks: []*Reason{
			{Kind: "chan", Chain: []string{"pkg.(*Conn).flush", "pkg.(*Conn).write", "channel send"}, When: when},
			{Kind: "wait", Chain: []string{"pkg.(*Conn).flush", "(*sync.Cond).Wait"}, CondLock: "(*pkg.Conn).mu",
				Released: []string{"(*pkg.Conn).mu", "(*pkg.half).mu"}, Guarded: true},
			{Kind: "select", Chain: []string{"pkg.(*Conn).Close", "pkg.(*keeper).stop", "select"}, Join: true,
				JoinTakes: []string{"(*pkg.keeper).mu", "(*pkg.Conn).mu (read)"}},
		},
		Callback:       &Reason{Kind: "callback", Chain: []string{"pkg.(*Conn).flush", "func value c.onFlush"}, Plausible: "a field set by the caller"},
		Unknown:        &Reason{Kind: "callback", Chain: []string{"interface method io.Writer.Write"}},
		CallsParams:    []int{1, 3},
		CalledReleased: []ParamClasses{{Param: 3, Classes: []string{"(*pkg.Conn).mu", "(*pkg.half).mu"}}},
		InvokesParams:  []int{0, 2},
		Acquires:       []string{"(*pkg.Conn).mu", "(*pkg.half).mu (read)"},
		Takes:          []lockstate.Effect{{Lock: recv, When: when[2:]}, {Lock: global, Mode: lockstate.Read}, {Lock: deep}},
		Zeros: []ZeroField{
			{Result: 0, Field: "writable", Unless: [][]lockstate.Cond{when[:1], when[1:]}},
			{Result: 1, Field: "closed"},
		},
		version: 7,
	}}
	sparse := &FuncFact{Summary: Summary{CallsParams: []int{0}}}
	empty := &FuncFact{Summary: Summary{Acquires: []string{""}}}
	checkRoundTrip(t, []*FuncFact{full, sparse, empty})
}

// TestFactRoundTripAnalysed round-trips every fact lockfacts exports for
// the test packages and the standard packages they import. (analysistest
// round-trips the facts a package imports too, through gob, but compares
// them with nothing.)
func TestFactRoundTripAnalysed(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), Analyzer, "store", "server")
	var facts []*FuncFact
	seen := map[*checker.Action]bool{}
	var walk func(act *checker.Action)
	walk = func(act *checker.Action) {
		if seen[act] {
			return
		}
		seen[act] = true
		for _, d := range act.Deps {
			walk(d)
		}
		if act.Analyzer != Analyzer {
			return
		}
		for _, of := range act.AllObjectFacts() {
			if of.Object.Pkg() != act.Package.Types {
				continue // inherited: analysistest has round-tripped it already
			}
			if f, ok := of.Fact.(*FuncFact); ok {
				facts = append(facts, f)
			}
		}
	}
	for _, r := range results {
		walk(r.Action)
	}
	var effects, blocks, conds, takes int
	for _, f := range facts {
		effects += len(f.Effects)
		blocks += len(f.Blocks)
		takes += len(f.Takes)
		for _, b := range f.Blocks {
			conds += len(b.When)
		}
	}
	t.Logf("%d facts: %d effects, %d block reasons (%d conditions), %d takes", len(facts), effects, blocks, conds, takes)
	if effects == 0 || blocks == 0 || conds == 0 || takes == 0 {
		t.Fatalf("the analysed facts do not exercise the encoding")
	}
	checkRoundTrip(t, facts)
}

// TestFactCorrupt checks that a damaged fact is an error, not a panic or a
// wrong summary.
func TestFactCorrupt(t *testing.T) {
	f := &FuncFact{Summary: Summary{
		Effects: []lockstate.Effect{{Lock: lockstate.ID{Key: "p0.mu", Path: ".mu", Root: lockstate.RootParam}}},
		Blocks:  []*Reason{{Kind: "sleep", Chain: []string{"f", "time.Sleep"}}},
	}}
	data, err := f.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := decodeSummary(data[:n]); err == nil {
			t.Errorf("a fact cut to %d of %d bytes decoded", n, len(data))
		}
	}
	if _, err := decodeSummary(append(bytes.Clone(data), 0)); err == nil {
		t.Errorf("a fact with a trailing byte decoded")
	}
	// The first string of the table (".mu", written whole) made to refer
	// to itself.
	if data[2] != 0 {
		t.Fatalf("the first string of the table has reference %d, want 0", data[2])
	}
	self := bytes.Clone(data)
	self[2] = 1
	if _, err := decodeSummary(self); err == nil {
		t.Errorf("a self-referring string decoded")
	}
	var g FuncFact
	if err := g.GobDecode(append([]byte{factVersion + 1}, data[1:]...)); err == nil {
		t.Errorf("a fact of another version was accepted")
	}
}
