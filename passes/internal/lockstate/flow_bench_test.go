package lockstate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// synthetic returns a package with one function of about n statements that
// mixes what the analysis has to follow: lock and unlock of several locks,
// defers, branches, loops with unlock/relock windows and calls.
func synthetic(n int) string {
	var b strings.Builder
	b.WriteString(`package p

import "sync"

type S struct {
	a, b, c sync.Mutex
	rw      sync.RWMutex
	n       int
}

func work(int) {}

func (s *S) Big(xs []int, flag bool) {
`)
	for i := 0; i < n; i += 10 {
		fmt.Fprintf(&b, `	s.a.Lock()
	s.n += %d
	if flag {
		s.b.Lock()
		work(s.n)
		s.b.Unlock()
	} else {
		work(%d)
	}
	for _, x := range xs {
		s.a.Unlock()
		work(x)
		s.a.Lock()
	}
	s.a.Unlock()
	s.rw.RLock()
	work(s.n)
	s.rw.RUnlock()
`, i, i)
	}
	b.WriteString("}\n")
	return b.String()
}

func benchmarkAnalyze(b *testing.B, n int) {
	pkg := build(b, synthetic(n))
	fn := funcNamed(pkg, "Big")
	stmts := 0
	for _, blk := range fn.Blocks {
		stmts += len(blk.Instrs)
	}
	b.ReportMetric(float64(stmts), "instrs")
	b.ResetTimer()
	b.ReportAllocs()
	for b.Loop() {
		lockstate.Analyze(fn, lockstate.Config{})
	}
}

// BenchmarkAnalyze measures the dataflow on functions of 1,000 and 10,000
// statements. The ratio of their ns/op and allocs/op should stay near 10
// (linear in function size); compare with
//
//	go test -run XXX -bench Analyze -count 6 ./passes/internal/lockstate/ > new.txt
//	benchstat -col /stmts new.txt
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("stmts=%d", n), func(b *testing.B) { benchmarkAnalyze(b, n) })
	}
}

func TestSyntheticIsLinear(t *testing.T) {
	// The analysis of the synthetic function must find the lock pattern it
	// was built with: a must-held lock at every work(s.n) under s.a.
	pkg := build(t, synthetic(100))
	fn := funcNamed(pkg, "Big")
	res := lockstate.Analyze(fn, lockstate.Config{})
	held := 0
	for _, ev := range res.Events {
		if len(ev.State.MustHeld()) > 0 {
			held++
		}
	}
	if held == 0 {
		t.Fatal("no events with locks held in the synthetic function")
	}
}
