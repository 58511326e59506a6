package driver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/report"
)

const fpSrc = `package p

import (
	"sync"
	"time"
)

var mu sync.Mutex

func Sleepy() {
	mu.Lock()
	time.Sleep(time.Millisecond)
	mu.Unlock()
}
`

// sleepyFinding analyses nothing: it builds the finding the analyzer would
// report for src (written to dir/p.go) at its time.Sleep call.
func sleepyFinding(t *testing.T, dir, src string) report.Finding {
	t.Helper()
	abs := writeFile(t, dir, "p.go", src)
	lockLine := lineOf(t, src, "mu.Lock()")
	msg := fmt.Sprintf("mu held across call of time.Sleep (locked at p.go:%d)", lockLine)
	related := jsonRelatedInfo{Posn: fmt.Sprintf("%s:%d:5", abs, lockLine), Message: "mu locked here"}
	d := diag("example.com/p", "sleep", abs, lineOf(t, src, "time.Sleep"), 12, msg, related)
	fs := buildFindings([]vetDiagnostic{d}, findingOptions{sel: selectRules(t, "", ""), tests: true},
		report.NewSources(), &report.Paths{Cwd: dir, Root: dir})
	if len(fs) != 1 {
		t.Fatalf("got %d findings", len(fs))
	}
	return fs[0]
}

func TestFingerprintStableUnderInsertedLines(t *testing.T) {
	dir := t.TempDir()
	before := sleepyFinding(t, dir, fpSrc)
	if before.Function != "Sleepy" || before.Lock != "mu" {
		t.Fatalf("function %q, lock %q", before.Function, before.Lock)
	}

	moved := strings.Replace(fpSrc, "var mu sync.Mutex\n", "var mu sync.Mutex\n\n// Unrelated.\nfunc Other() {\n}\n\n", 1)
	after := sleepyFinding(t, dir, moved)
	if after.Line == before.Line || after.Message == before.Message {
		t.Fatalf("test setup: the finding did not move (line %d, %q)", after.Line, after.Message)
	}
	if after.Fingerprint != before.Fingerprint {
		t.Errorf("fingerprint changed when lines were inserted above: %s -> %s", before.Fingerprint, after.Fingerprint)
	}

	renamed := strings.Replace(fpSrc, "func Sleepy()", "func Drowsy()", 1)
	if other := sleepyFinding(t, dir, renamed); other.Fingerprint == before.Fingerprint {
		t.Error("fingerprint did not change with the enclosing function")
	}
	f := before
	f.Category = "wait"
	if report.Fingerprint(f) == report.Fingerprint(before) {
		t.Error("fingerprint did not change with the category")
	}
	f = before
	f.File = "q.go"
	if report.Fingerprint(f) == report.Fingerprint(before) {
		t.Error("fingerprint did not change with the file")
	}
}
