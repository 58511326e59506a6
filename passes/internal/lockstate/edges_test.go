package lockstate_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

const edgesSrc = `package p

import "sync"

type A struct {
	mu   sync.Mutex
	skip int
}

// LoopBreak leaves a.mu held into the return on its break.
func (a *A) LoopBreak() {
	for i := 0; i < 10; i++ {
		a.mu.Lock()
		if i == a.skip {
			break
		}
		a.mu.Unlock()
	}
}

// Loop keeps a.mu held on its continue.
func (a *A) Loop() {
	for i := 0; i < 10; i++ {
		a.mu.Lock()
		if i == a.skip {
			continue
		}
		a.mu.Unlock()
	}
}

// Agree holds a.mu along both edges into its return.
func (a *A) Agree(x bool) {
	a.mu.Lock()
	if x {
		a.skip++
	}
	a.mu.Unlock()
}
`

// describe writes a state's held locks as "a.mu(must)".
func describe(s lockstate.State) string {
	var out []string
	for _, h := range s.Held {
		m := "may"
		if h.Must {
			m = "must"
		}
		out = append(out, h.Name+"("+m+")")
	}
	return "[" + strings.Join(out, " ") + "]"
}

func returnOf(fn *ssa.Function) *ssa.Return {
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return ret
		}
	}
	return nil
}

func TestReturnsAlong(t *testing.T) {
	pkg := build(t, edgesSrc)
	fn := funcNamed(pkg, "LoopBreak")
	res := lockstate.Analyze(fn, lockstate.Config{})
	ret := returnOf(fn)
	if ev, _ := res.EventAt(ret); len(ev.State.MustHeld()) != 0 {
		t.Fatalf("joined state at the return: %s, want nothing must-held", describe(ev.State))
	}
	along := res.ReturnsAlong(ret)
	var got []string
	for _, a := range along {
		got = append(got, describe(a.State))
	}
	if strings.Join(got, " ") != "[] [a.mu(must)]" {
		t.Errorf("states along the edges into the return: %v, want [] [a.mu(must)]", got)
	}
	if along := lockstate.Analyze(funcNamed(pkg, "Agree"), lockstate.Config{}).ReturnsAlong(returnOf(funcNamed(pkg, "Agree"))); along != nil {
		t.Errorf("Agree: split return, want none")
	}
}

func TestEdgeState(t *testing.T) {
	pkg := build(t, edgesSrc)
	fn := funcNamed(pkg, "Loop")
	res := lockstate.Analyze(fn, lockstate.Config{})
	// The edges into the loop's post statement: the continue keeps a.mu,
	// the end of the body released it.
	var post *ssa.BasicBlock
	for _, b := range fn.Blocks {
		if b.Comment == "for.post" {
			post = b
		}
	}
	if post == nil || !lockstate.Transparent(post) {
		t.Fatal("no transparent for.post block")
	}
	var got []string
	for _, p := range post.Preds {
		for i, s := range p.Succs {
			if s == post {
				st, ok := res.EdgeState(p, i)
				if !ok {
					t.Fatalf("no state along %s -> for.post", p.Comment)
				}
				got = append(got, describe(st))
			}
		}
	}
	if strings.Join(got, " ") != "[a.mu(must)] []" {
		t.Errorf("states along the edges into for.post: %v, want [a.mu(must)] []", got)
	}
}
