package profiler

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/internal/testfile"
)

// testModule writes a module with a contended package, a package without
// tests, a package whose test fails, and two packages with the same last
// path element (their test binaries must not collide).
func testModule(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		"hot/hot.go": `package hot

import (
	"sync"
	"time"
)

var mu sync.Mutex

// Hold keeps mu for a while.
func Hold() {
	mu.Lock()
	time.Sleep(100 * time.Microsecond)
	mu.Unlock()
}
`,
		"hot/hot_test.go": `package hot

import (
	"sync"
	"testing"
)

func TestHold(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				Hold()
			}
		})
	}
	wg.Wait()
}
`,
		"a/util/util.go":      "package util\n\nfunc F() int { return 1 }\n",
		"a/util/util_test.go": "package util\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
		"b/util/util.go":      "package util\n\nfunc G() int { return 2 }\n",
		"b/util/util_test.go": "package util\n\nimport \"testing\"\n\nfunc TestG(t *testing.T) {\n\tif G() != 3 {\n\t\tt.Fatal(\"G is not 3\")\n\t}\n}\n",
		"notests/n.go":        "package notests\n\nfunc N() {}\n",
	}
	return writeModule(t, files)
}

func TestCollectTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := testModule(t)
	c := NewCollection()
	var progress []string
	events := map[string]PackageEvent{}
	err := CollectTests(context.Background(), c, TestOptions{
		Dir: dir, Patterns: []string{"./...", "./nosuchdir/..."}, Parallel: 2,
		Progress:  func(msg string) { progress = append(progress, msg) },
		OnPackage: func(ev PackageEvent) { events[ev.Package] = ev },
	})
	if err != nil {
		t.Fatal(err)
	}
	// A package without test files is skipped, as go test skips it.
	want := map[string]string{
		"example.com/m/b/util": "tests failed: TestG",
		"./nosuchdir/...":      "no such file or directory",
	}
	errs := c.Errors()
	if len(errs) != len(want) {
		t.Errorf("errors = %v, want %d", errs, len(want))
	}
	for _, e := range errs {
		if w, ok := want[e.Source]; !ok || !strings.Contains(e.Message, w) {
			t.Errorf("error %s: %q, want one containing %q", e.Source, e.Message, want[e.Source])
		}
	}
	// The failing package's profiles are kept: three packages ran.
	if got := strings.Join(c.Sources(), " "); got != "example.com/m/a/util example.com/m/b/util example.com/m/hot" {
		t.Errorf("sources = %s", got)
	}
	if c.Count(Mutex) != 3 || c.Count(Block) != 3 {
		t.Errorf("profiles: mutex %d, block %d; want 3 each", c.Count(Mutex), c.Count(Block))
	}
	rep := BuildReport(c, ReportOptions{Root: dir})
	top := rep.ofKind(Mutex)
	if len(top) == 0 || top[0].Function != "example.com/m/hot.Hold" || top[0].File != "hot/hot.go" {
		t.Errorf("mutex hotspots = %+v, want hot.Hold first", top)
	}
	if len(progress) == 0 {
		t.Error("no progress reported")
	}
	// One final event per package go list found.
	wantStatus := map[string]PackageStatus{"example.com/m/hot": StatusOK, "example.com/m/a/util": StatusOK, "example.com/m/b/util": StatusFailed, "example.com/m/notests": StatusNoTestFiles}
	if len(events) != len(wantStatus) {
		t.Errorf("events = %+v, want one for each of %v", events, wantStatus)
	}
	for pkg, status := range wantStatus {
		if ev := events[pkg]; ev.Status != status || ev.Elapsed <= 0 && status != StatusNoTestFiles {
			t.Errorf("event of %s = %+v, want status %s and a wall time", pkg, ev, status)
		}
	}
	if ev := events["example.com/m/hot"]; ev.Mutex <= 0 || ev.Mutex > time.Duration(rep.TotalDelayNS.Mutex) {
		t.Errorf("hot's mutex delay %v, want > 0 and at most the report's total %v", ev.Mutex, time.Duration(rep.TotalDelayNS.Mutex))
	}
	if ev := events["example.com/m/b/util"]; ev.Message != "tests failed: TestG" {
		t.Errorf("failed package's message = %q", ev.Message)
	}
}

func TestCollectTestsInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := CollectTests(ctx, NewCollection(), TestOptions{Dir: testModule(t), Patterns: []string{"./..."}})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("CollectTests after cancel = %v, want interrupted", err)
	}
}

func TestTestFailureSummary(t *testing.T) {
	for out, want := range map[string]string{
		"--- FAIL: TestA (0.00s)\n    x_test.go:1: boom\n--- FAIL: TestB (0.01s)\nFAIL\n": "tests failed: TestA, TestB",
		"panic: test timed out after 1s\n\ngoroutine 1 [running]:\n":                      "test binary panicked: test timed out after 1s",
		"something odd\nexit status 3\n":                                                  "test binary failed (exit status 3): something odd",
	} {
		if got := testFailureSummary(out, errExit3{}); got != want {
			t.Errorf("testFailureSummary(%q) = %q, want %q", out, got, want)
		}
	}
}

type errExit3 struct{}

func (errExit3) Error() string { return "exit status 3" }

// writeModule writes files into a new module directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, src := range files {
		testfile.Write(t, dir, name, src)
	}
	return dir
}

// TestCollectTestsBenchmarkBudget: benchmarks are not bounded by the
// testing package's -timeout, so each runs on its own within the
// package's budget: the one that finished is kept when the next one
// outlives the budget.
func TestCollectTestsBenchmarkBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"queue/queue_test.go": `package queue

import (
	"sync"
	"testing"
	"time"
)

func BenchmarkAContended(b *testing.B) {
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			mu.Unlock()
		}
	})
}

func BenchmarkBSetupNeverEnds(b *testing.B) {
	time.Sleep(time.Hour)
}
`,
		"early/early_test.go": `package early

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(0) } // needs root, say: runs nothing

func TestNeedsRoot(t *testing.T) {}
`,
	})
	c := NewCollection()
	events := map[string]PackageEvent{}
	err := CollectTests(context.Background(), c, TestOptions{
		Dir: dir, Patterns: []string{"./..."}, Run: "^$", Bench: ".", Benchtime: "100x", Timeout: 3 * time.Second,
		OnPackage: func(ev PackageEvent) { events[ev.Package] = ev },
	})
	if err != nil {
		t.Fatal(err)
	}
	q := events["example.com/m/queue"]
	want := "partly profiled: BenchmarkBSetupNeverEnds timed out after the package's -timeout 3s"
	if q.Status != StatusTimedOut || q.Message != want {
		t.Errorf("queue: %s %q, want timeout %q", q.Status, q.Message, want)
	}
	if got := strings.Join(c.Sources(), " "); got != "example.com/m/queue" {
		t.Errorf("sources = %q, want the queue package's finished benchmark", got)
	}
	if c.Count(Mutex) != 1 {
		t.Errorf("%d mutex profiles, want the finished benchmark's", c.Count(Mutex))
	}
	if e := events["example.com/m/early"]; e.Status != StatusNoTests {
		t.Errorf("early: %+v, want no tests", e)
	}
	errs := c.Errors()
	if len(errs) != 1 || errs[0].Source != "example.com/m/queue" || errs[0].Message != want {
		t.Errorf("errors = %+v, want only the queue's timeout (a binary that runs no test is not an error)", errs)
	}
}

func TestSplitBench(t *testing.T) {
	for in, want := range map[string][2]string{
		".":                         {".", ""},
		"Load/design=rwmutex":       {"Load", "design=rwmutex"},
		"Load/design=(a|b/c)/g=16$": {"Load", "design=(a|b/c)/g=16$"},
		"[/]x/y":                    {"[/]x", "y"},
	} {
		if top, rest := splitBench(in); top != want[0] || rest != want[1] {
			t.Errorf("splitBench(%q) = %q, %q; want %q, %q", in, top, rest, want[0], want[1])
		}
	}
}
