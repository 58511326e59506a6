package profiler

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/pprof/profile"
)

// ledgerSource has a lock released explicitly in Post and by a defer in
// Balance, and a callback run under the first.
const ledgerSource = `package ledger

import "sync"

type Ledger struct {
	mu      sync.Mutex
	entries []int
	onPost  func(int)
}

func (l *Ledger) Post(v int) {
	l.mu.Lock()
	l.entries = append(l.entries, v)
	l.onPost(v)
	l.mu.Unlock()
	audit(v)
}

func (l *Ledger) Balance() (sum int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, v := range l.entries {
		sum += v
	}
	return sum
}

func audit(int) {}
`

// cpuProfile builds a CPU-shaped profile from fake stacks (delay is the
// CPU time).
func cpuProfile(stacks ...fakeStack) *profile.Profile {
	p := contentionProfile(stacks...)
	p.SampleType = []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}
	p.PeriodType = &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}
	return p
}

func TestAttributeHolding(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ledger.go")
	if err := os.WriteFile(file, []byte(ledgerSource), 0o600); err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/ledger"
	post, balance := pkg+".(*Ledger).Post", pkg+".(*Ledger).Balance"
	at := func(fn string, line int) string { return fn + " " + file + ":" + strconv.Itoa(line) }
	cpu := cpuProfile(
		// Under l.mu in Post: the callback, mostly, and the append.
		fakeStack{[]string{pkg + ".NewLedger.func1 " + file + ":99", at(post, 14)}, 1, 97e6},
		fakeStack{[]string{"runtime.growslice /go/src/runtime/slice.go:1", at(post, 13)}, 1, 2e6},
		fakeStack{[]string{at(post, 12)}, 1, 1e6},
		// After the Unlock: not under the lock.
		fakeStack{[]string{pkg + ".audit " + file + ":28", at(post, 16)}, 1, 500e6},
		// Balance's loop runs under its deferred Unlock.
		fakeStack{[]string{at(balance, 23)}, 1, 40e6},
	)
	hs := []*Hotspot{
		{Kind: Mutex, Function: post, absFile: file, Line: 15},
		{Kind: Mutex, Function: balance, absFile: file, Line: 26}, // the deferred Unlock runs at the closing brace
		{Kind: Block, Function: post, absFile: file, Line: 12},    // a waiter: nothing held yet
	}
	attributeHolding(hs, cpu, newDeclIndex())

	h := hs[0].Holding
	if h == nil {
		t.Fatal("Post: no holding")
	}
	if want := "l.mu held in ledger.(*Ledger).Post, 97.0% of on-CPU time under it in ledger.NewLedger.func1"; h.Summary != want {
		t.Errorf("Post summary = %q, want %q", h.Summary, want)
	}
	if h.CPUNS != 100e6 || len(h.Callees) != 3 || h.Callees[2].Function != "(itself)" {
		t.Errorf("Post holding = %+v, want 100ms over the callback, growslice and itself", h)
	}
	if b := hs[1].Holding; b == nil || b.Summary != "l.mu held in ledger.(*Ledger).Balance, 100.0% of on-CPU time under it in its own code" {
		t.Errorf("Balance holding = %+v", b)
	}
	if hs[2].Holding != nil {
		t.Errorf("a block hotspot got a holding: %+v", hs[2].Holding)
	}
}

func TestSectionNotFound(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ledger.go")
	if err := os.WriteFile(file, []byte(ledgerSource), 0o600); err != nil {
		t.Fatal(err)
	}
	d := newDeclIndex()
	for _, line := range []int{16, 28} { // audit's call, audit itself: no Unlock there
		if s, ok := d.section(file, line); ok {
			t.Errorf("line %d: section %+v, want none", line, s)
		}
	}
	if _, ok := d.section(filepath.Join(t.TempDir(), "missing.go"), 3); ok {
		t.Error("a missing file has a section")
	}
}
