package heldcall_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/heldcall"
	"github.com/lockaudit/lockaudit/passes/internal/leveltest"
)

// TestStreamHelperCategory checks that an I/O helper that blocks only as
// much as its stream (io.ReadFull) takes the stream's category: network
// on a net.Conn, file on an *os.File.
func TestStreamHelperCategory(t *testing.T) {
	leveltest.ReportNotes(t) // the fixture's notes are wanted too
	results := analysistest.Run(t, analysistest.TestData(), heldcall.Analyzer, "netio")
	want := map[string]string{"readHeader": "net", "replayHeader": "file"}
	got := map[string]string{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if filepath.Base(p.Filename) != "frames.go" {
				continue
			}
			line := strings.TrimSpace(lineAt(t, p.Filename, p.Line))
			switch {
			case strings.Contains(line, "r.conn"):
				got["readHeader"] = d.Category
			case strings.Contains(line, "r.spool"):
				got["replayHeader"] = d.Category
			}
		}
	}
	for fn, cat := range want {
		if got[fn] != cat {
			t.Errorf("%s: category %q, want %q", fn, got[fn], cat)
		}
	}
}

// lineAt returns line n (1-based) of file.
func lineAt(t *testing.T, file string, n int) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", file, n)
	}
	return lines[n-1]
}
