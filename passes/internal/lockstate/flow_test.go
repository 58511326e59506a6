package lockstate_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// build type-checks src as package p and returns its SSA form.
func build(t testing.TB, src string) *ssa.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	pkg := types.NewPackage("p", "p")
	conf := &types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	ssapkg, _, err := ssautil.BuildPackage(conf, fset, pkg, []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	return ssapkg
}

// heldAtCalls returns, for each call of a function named mark* in fn, the
// must-held and may-held locks just before it, as "mark: must [..] may [..]".
func heldAtCalls(fn *ssa.Function, res *lockstate.Result) []string {
	var out []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil || !strings.HasPrefix(callee.Name(), "mark") {
				continue
			}
			var must, may []string
			if ev, ok := res.EventAt(instr); ok {
				for _, h := range ev.State.Held {
					name := h.Name
					if h.Mode == lockstate.Read {
						name += "(r)"
					}
					if h.Deferred {
						name += "(defer)"
					}
					if h.Must {
						must = append(must, name)
					} else {
						may = append(may, name)
					}
				}
			}
			sort.Strings(must)
			sort.Strings(may)
			out = append(out, fmt.Sprintf("%s: must %v may %v", callee.Name(), must, may))
		}
	}
	sort.Strings(out)
	return out
}

// funcNamed returns the function or method (of any type, generic ones
// included) named name.
func funcNamed(pkg *ssa.Package, name string) *ssa.Function {
	if fn := pkg.Func(name); fn != nil {
		return fn
	}
	scope := pkg.Pkg.Scope()
	for _, n := range scope.Names() {
		named, ok := scope.Lookup(n).Type().(*types.Named)
		if !ok {
			continue
		}
		for m := range named.Methods() {
			if m.Name() == name {
				return pkg.Prog.FuncValue(m)
			}
		}
	}
	return nil
}

const prelude = `package p

import "sync"

type Cache struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	cond *sync.Cond
	m    map[string]int
}

type Embedded struct {
	sync.Mutex
	n int
}

var global sync.Mutex

func markA() {}
func markB() {}
func markC() {}
func markD() {}
`

func TestHeldSets(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{
			name: "lock unlock",
			body: `func (c *Cache) F() { markA(); c.mu.Lock(); markB(); c.mu.Unlock(); markC() }`,
			want: []string{"markA: must [] may []", "markB: must [c.mu] may []", "markC: must [] may []"},
		},
		{
			name: "defer keeps the lock until return",
			body: `func (c *Cache) F() { c.mu.Lock(); defer c.mu.Unlock(); markA() }`,
			want: []string{"markA: must [c.mu(defer)] may []"},
		},
		{
			name: "branch makes may",
			body: `func (c *Cache) F(b bool) { if b { c.mu.Lock() }; markA(); if b { c.mu.Unlock() } }`,
			want: []string{"markA: must [] may [c.mu]"},
		},
		{
			name: "early unlock on one branch",
			body: `func (c *Cache) F(k string) int {
				c.mu.Lock()
				if v, ok := c.m[k]; ok { c.mu.Unlock(); markA(); return v }
				markB()
				c.mu.Unlock()
				return 0
			}`,
			want: []string{"markA: must [] may []", "markB: must [c.mu] may []"},
		},
		{
			name: "loop with unlock relock window",
			body: `func (c *Cache) F(jobs []func()) {
				c.mu.Lock()
				for range jobs { markA(); c.mu.Unlock(); markB(); c.mu.Lock() }
				markC()
				c.mu.Unlock()
			}`,
			want: []string{"markA: must [c.mu] may []", "markB: must [] may []", "markC: must [c.mu] may []"},
		},
		{
			name: "trylock true branch only",
			body: `func (c *Cache) F() { if c.mu.TryLock() { markA(); c.mu.Unlock() } else { markB() } }`,
			want: []string{"markA: must [c.mu] may []", "markB: must [] may []"},
		},
		{
			name: "negated trylock",
			body: `func (c *Cache) F() { if !c.mu.TryLock() { markA(); return }; markB(); c.mu.Unlock() }`,
			want: []string{"markA: must [] may []", "markB: must [c.mu] may []"},
		},
		{
			name: "read lock",
			body: `func (c *Cache) F() { c.rw.RLock(); markA(); c.rw.RUnlock() }`,
			want: []string{"markA: must [c.rw(r)] may []"},
		},
		{
			name: "embedded mutex",
			body: `func (e *Embedded) F() { e.Lock(); markA(); e.Unlock(); markB() }`,
			want: []string{"markA: must [e.Mutex] may []", "markB: must [] may []"},
		},
		{
			name: "package-level mutex",
			body: `func F() { global.Lock(); markA(); global.Unlock() }`,
			want: []string{"markA: must [global] may []"},
		},
		{
			name: "sync.Locker interface",
			body: `func F(l sync.Locker) { l.Lock(); markA(); l.Unlock(); markB() }`,
			want: []string{"markA: must [l] may []", "markB: must [] may []"},
		},
		{
			name: "cond wait keeps the lock",
			body: `func (c *Cache) F() { c.mu.Lock(); for len(c.m) == 0 { c.cond.Wait() }; markA(); c.mu.Unlock() }`,
			want: []string{"markA: must [c.mu] may []"},
		},
		{
			name: "generic receiver",
			body: `type G[K comparable, V any] struct { mu sync.Mutex; m map[K]V }
			func (g *G[K, V]) F(k K) V { g.mu.Lock(); defer g.mu.Unlock(); markA(); return g.m[k] }`,
			want: []string{"markA: must [g.mu(defer)] may []"},
		},
		{
			name: "index path",
			body: `type shard struct { mu sync.Mutex }
			type S struct { shards [4]shard }
			func (s *S) F(i int) { s.shards[i].mu.Lock(); markA(); s.shards[i].mu.Unlock(); markB() }`,
			want: []string{"markA: must [s.shards[i].mu] may []", "markB: must [] may []"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg := build(t, prelude+tt.body)
			fn := funcNamed(pkg, "F")
			if fn == nil {
				t.Fatal("no function F")
			}
			got := heldAtCalls(fn, lockstate.Analyze(fn, lockstate.Config{}))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("held sets:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestWrapperEffects(t *testing.T) {
	pkg := build(t, prelude+`
func (c *Cache) lock()   { c.mu.Lock() }
func (c *Cache) unlock() { c.mu.Unlock() }
func (c *Cache) rlockBoth() { c.rw.RLock(); global.Lock() }
func (c *Cache) balanced() { c.mu.Lock(); c.mu.Unlock() }
func (c *Cache) deferred() { c.mu.Lock(); defer c.mu.Unlock() }
`)
	typ := pkg.Type("Cache").Type()
	ms := pkg.Prog.MethodSets.MethodSet(types.NewPointer(typ))
	effects := func(name string) string {
		fn := pkg.Prog.MethodValue(ms.Lookup(pkg.Pkg, name))
		var parts []string
		for _, e := range lockstate.Analyze(fn, lockstate.Config{}).Exit {
			op := "acquire"
			if e.Release {
				op = "release"
			}
			parts = append(parts, fmt.Sprintf("%s %s %s %s", op, e.Mode, e.Lock.Class, e.Lock.Path))
		}
		sort.Strings(parts)
		return strings.Join(parts, "; ")
	}
	for name, want := range map[string]string{
		"lock":      "acquire write (*p.Cache).mu .mu",
		"unlock":    "release write (*p.Cache).mu .mu",
		"rlockBoth": "acquire read (*p.Cache).rw .rw; acquire write p.global ",
		"balanced":  "",
		"deferred":  "",
	} {
		if got := effects(name); got != want {
			t.Errorf("%s: effects %q, want %q", name, got, want)
		}
	}
}
