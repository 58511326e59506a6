package lockaudit_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit"
)

// TestAnalyzersTogether runs every analyzer on one package in one driver,
// which runs them concurrently over the shared lockfacts result (run it
// with -race: .ci/run does). Each analyzer must report its finding.
func TestAnalyzersTogether(t *testing.T) {
	gopath, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(gopath, "src", "together"),
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "together")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the test package does not load")
	}
	graph, err := checker.Analyze(lockaudit.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		if act.IsRoot {
			got[act.Analyzer.Name] += len(act.Diagnostics)
		}
	}
	for _, a := range lockaudit.Analyzers() {
		if got[a.Name] == 0 {
			t.Errorf("%s reported nothing on the shared package; got %v", a.Name, got)
		}
	}
}
