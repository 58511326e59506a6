package driver

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/rules"
)

// TestVetFlagsSelection checks that the analyzers a selection does not need
// are turned off, and only those: category filtering happens on the results.
func TestVetFlagsSelection(t *testing.T) {
	as := []*analysis.Analyzer{{Name: "heldcall"}, {Name: "lockorder"}}
	for _, c := range []struct{ enable, disable, want string }{
		{"", "", ""},
		{"heldcall/sleep, shardlock/global-map", "", "-lockorder=false"},
		{"heldcall,lockorder", "heldcall/chan,lockorder", "-lockorder=false"},
		{"heldcall/sleep", "heldcall", "-heldcall=false -lockorder=false"},
	} {
		sel, err := rules.Parse([]string{c.enable}, []string{c.disable}, "heldcall", "lockorder")
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(vetFlags(Config{Analyzers: as, Selection: sel, Severity: "warning"}), " ")
		if got != c.want {
			t.Errorf("-enable %q -disable %q: flags %q, want %q", c.enable, c.disable, got, c.want)
		}
	}
}

// analyzer returns an analyzer with the named flags, as the passes declare
// them.
func analyzer(name string, flags ...string) *analysis.Analyzer {
	a := &analysis.Analyzer{Name: name}
	for _, f := range flags {
		a.Flags.String(f, "", "")
	}
	return a
}

// TestVetFlagsOptions checks the analyzer flags of the severity, tests and
// block options.
func TestVetFlagsOptions(t *testing.T) {
	as := []*analysis.Analyzer{
		analyzer("heldcall", "block", "severity", "tests"),
		analyzer("lockorder", "severity"),
		analyzer("shardlock", "severity", "tests"),
	}
	sel, err := rules.Parse([]string{"heldcall,shardlock"}, nil, "heldcall", "lockorder", "shardlock")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Analyzers: as, Selection: sel, Severity: "warning", Tests: true}
	if got := strings.Join(vetFlags(cfg), " "); got != "-lockorder=false" {
		t.Errorf("defaults: flags %q", got)
	}
	cfg.Severity = "note"
	cfg.AnalyzerTests = []string{"heldcall"}
	cfg.Block = []string{"example.com/db.Query=db", "example.com/db.Exec=db"}
	want := "-lockorder=false -heldcall.severity=note -heldcall.tests -shardlock.severity=note -heldcall.block=example.com/db.Query=db,example.com/db.Exec=db"
	if got := strings.Join(vetFlags(cfg), " "); got != want {
		t.Errorf("flags %q\nwant  %q", got, want)
	}
	cfg.AnalyzerTests = []string{"heldcall", "shardlock"}
	if got := strings.Join(vetFlags(cfg), " "); !strings.Contains(got, "-heldcall.tests") || !strings.Contains(got, "-shardlock.tests") {
		t.Errorf("-heldcall.tests -shardlock.tests: flags %q", got)
	}
	// AnalyzerTests only adds to Tests.
	cfg.Tests = false
	if got := strings.Join(vetFlags(cfg), " "); strings.Contains(got, ".tests") {
		t.Errorf("-tests=false -heldcall.tests: flags %q", got)
	}
}

// TestSetAnalyzerFlags checks that the in-process driver sets the flags
// vetFlags gives the vet tool, leaves out the analyzers turned off, and
// puts every flag back, a list flag included.
func TestSetAnalyzerFlags(t *testing.T) {
	held := analyzer("heldcall", "severity", "tests")
	list := &appendList{}
	held.Flags.Var(list, "block", "")
	order := analyzer("lockorder", "severity")
	sel, err := rules.Parse([]string{"heldcall"}, nil, "heldcall", "lockorder")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Analyzers: []*analysis.Analyzer{held, order}, Selection: sel, Severity: "note", Tests: true, AnalyzerTests: []string{"heldcall"},
		Block: []string{"example.com/db.Query=db"}}
	run, restore, err := setAnalyzerFlags(cfg.Analyzers, vetFlags(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if len(run) != 1 || run[0] != held {
		t.Errorf("analyzers run: %v, want heldcall alone", run)
	}
	if got := held.Flags.Lookup("severity").Value.String(); got != "note" {
		t.Errorf("-heldcall.severity %q", got)
	}
	if got := held.Flags.Lookup("tests").Value.String(); got != "true" {
		t.Errorf("-heldcall.tests %q", got)
	}
	if got := list.String(); got != "example.com/db.Query=db" {
		t.Errorf("-heldcall.block %q", got)
	}
	restore()
	if s, ts, b := held.Flags.Lookup("severity").Value.String(), held.Flags.Lookup("tests").Value.String(), list.String(); s != "" || ts != "" || b != "" {
		t.Errorf("after restore: severity %q, tests %q, block %q; want the defaults", s, ts, b)
	}
}

// appendList is a flag whose Set adds to a list, like heldcall's -block.
type appendList struct{ items []string }

func (l *appendList) String() string     { return strings.Join(l.items, ",") }
func (l *appendList) Set(v string) error { l.items = append(l.items, v); return nil }
func (l *appendList) Reset()             { l.items = nil }
