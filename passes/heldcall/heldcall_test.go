package heldcall_test

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/heldcall"
)

// Each package under testdata/src holds cases of one kind: a positive (a
// line with a want comment) next to its negative twin, the corrected code,
// which must stay silent.
var corpus = []string{
	"workerpool",
	"callbacks",
	"ifaces",
	"channels",
	"sleepwait",
	"cond",
	"netio",
	"fileio",
	"execdb",
	"transitive",
	"closures",
	"trylock",
	"locker",
	"embedded",
	"wrappers",
	"generics",
	"defers",
	"loops",
	"suppress",
	"storeclient",
	"crosspkg",
	"regressions",
	"idioms",
}

func TestHeldcall(t *testing.T) {
	// Notes are reported too: their messages end "(plausible: ...)", and
	// the want patterns say which findings are notes.
	setFlag(t, "severity", "note")
	// One run loads the packages and their dependencies once: run per
	// package, the corpus took minutes.
	results := analysistest.Run(t, analysistest.TestData(), heldcall.Analyzer, corpus...)
	checkLevels(t, results)
}

// checkLevels checks that the confidence of every finding is the one its
// expectation states: a note's want pattern says "plausible" (a warning's
// cannot, or it would not match).
func checkLevels(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if confidence.Of(d.Message) != confidence.Note {
				continue
			}
			p := r.Pass.Fset.Position(d.Pos)
			src, err := os.ReadFile(p.Filename)
			if err != nil {
				t.Fatal(err)
			}
			line := strings.Split(string(src), "\n")[p.Line-1]
			if !strings.Contains(line, "plausible") {
				t.Errorf("%s: %q is a note, but its want pattern does not say plausible", p, d.Message)
			}
		}
	}
}

// setFlag sets one of the analyzer's flags for the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := heldcall.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}
