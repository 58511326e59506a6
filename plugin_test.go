package lockaudit_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit"
	"github.com/lockaudit/lockaudit/internal/confidence"
)

// newPlugin builds the plugin through golangci-lint's registry, as the
// custom binary does.
func newPlugin(t *testing.T, settings any) (register.LinterPlugin, error) {
	t.Helper()
	newFn, err := register.GetPlugin("lockaudit")
	if err != nil {
		t.Fatal(err)
	}
	return newFn(settings)
}

func TestPluginSettings(t *testing.T) {
	for _, c := range []struct {
		name     string
		settings any
		wantErr  string // "" for no error
	}{
		{"none", nil, ""},
		{"empty", map[string]any{}, ""},
		{"rules", map[string]any{"enable": []any{"heldcall"}, "disable": []any{"heldcall/callback", "shardlock"}}, ""},
		{"categories", map[string]any{"enable": []any{"heldcall/sleep", "shardlock/global-map"}}, ""},
		{"comma list", map[string]any{"disable": []any{"heldcall/chan,heldcall/select"}}, ""},
		{"block", map[string]any{"block": []any{"example.com/db.(*Client).Query=db"}}, ""},
		{"unknown key", map[string]any{"enabled": []any{"heldcall"}}, `unknown field "enabled"`},
		{"unknown key next to good ones", map[string]any{"enable": []any{"heldcall"}, "tests": true}, `unknown field "tests"`},
		{"not a list", map[string]any{"enable": "heldcall"}, "cannot unmarshal"},
		{"unknown rule", map[string]any{"enable": []any{"heldcal"}}, `enable: unknown rule "heldcal"`},
		{"unknown category", map[string]any{"disable": []any{"heldcall/sleeps"}}, `disable: unknown category "sleeps" of rule heldcall`},
		{"empty category", map[string]any{"disable": []any{"heldcall/"}}, `disable: empty category`},
		{"block without category", map[string]any{"block": []any{"example.com/db.Query"}}, `block: "example.com/db.Query" is not name=category`},
		{"block with bad category", map[string]any{"block": []any{"example.com/db.Query=disk"}}, `unknown blocking category "disk"`},
		{"severity", map[string]any{"severity": "note"}, ""},
		{"bad severity", map[string]any{"severity": "info"}, `severity: unknown severity "info"`},
		{"heldcall tests", map[string]any{"heldcall-tests": true}, ""},
		{"shardlock tests", map[string]any{"shardlock-tests": true}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Analyzer flags are process-wide: put them back.
			t.Cleanup(func() {
				confidence.SetThreshold(confidence.Warning)
				for _, a := range lockaudit.Analyzers() {
					if f := a.Flags.Lookup("tests"); f != nil {
						f.Value.Set("false")
					}
				}
			})
			p, err := newPlugin(t, c.settings)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("New: %v", err)
			case c.wantErr != "" && err == nil:
				t.Fatalf("New succeeded, want an error containing %q", c.wantErr)
			case c.wantErr != "":
				if !strings.Contains(err.Error(), c.wantErr) || !strings.HasPrefix(err.Error(), "lockaudit: ") {
					t.Errorf("error %q, want one starting with lockaudit: and containing %q", err, c.wantErr)
				}
				return
			}
			if mode := p.GetLoadMode(); mode != register.LoadModeTypesInfo {
				t.Errorf("load mode %q, want %q", mode, register.LoadModeTypesInfo)
			}
			as, err := p.BuildAnalyzers()
			if err != nil {
				t.Fatal(err)
			}
			if err := analysis.Validate(as); err != nil {
				t.Errorf("analyzers do not validate: %v", err)
			}
		})
	}
}

// names returns the analyzers' names.
func names(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return ns
}

func TestPluginBuildAnalyzers(t *testing.T) {
	all := lockaudit.Analyzers()

	// By default the plugin runs every analyzer, wrapped but with the same
	// name, requirements and facts.
	p, err := lockaudit.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	if !slices.Equal(names(as), names(all)) {
		t.Errorf("default analyzers %v, want those of lockaudit.Analyzers() %v", names(as), names(all))
	}
	for i := range min(len(as), len(all)) {
		if a, b := as[i], all[i]; a.Doc != b.Doc || !slices.Equal(a.Requires, b.Requires) || !slices.Equal(a.FactTypes, b.FactTypes) || a.Flags.Lookup("block") != b.Flags.Lookup("block") {
			t.Errorf("wrapped %s differs from the original in more than Run", a.Name)
		}
	}

	// A disabled rule's analyzer does not run at all.
	p, err = lockaudit.New(map[string]any{"disable": []any{"heldcall"}})
	if err != nil {
		t.Fatal(err)
	}
	if as, _ := p.BuildAnalyzers(); slices.Contains(names(as), "heldcall") {
		t.Errorf("disable heldcall: analyzers %v", names(as))
	}

	// Enabling only another rule drops heldcall too.
	p, err = lockaudit.New(map[string]any{"enable": []any{"lockorder"}})
	if err != nil {
		t.Fatal(err)
	}
	if as, _ := p.BuildAnalyzers(); slices.Contains(names(as), "heldcall") {
		t.Errorf("enable lockorder: analyzers %v", names(as))
	}
}

// collector is an analysistest.Testing that records errors instead of
// failing: the plugin tests inspect the diagnostics themselves.
type collector struct{ errs []string }

func (c *collector) Errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// categories runs the analyzer named heldcall among as on a package of
// testdata/src and returns the categories of its diagnostics, in order. The
// plugin's diagnostics must have no related locations.
func categories(t *testing.T, as []*analysis.Analyzer, pkg string) []string {
	t.Helper()
	i := slices.IndexFunc(as, func(a *analysis.Analyzer) bool { return a.Name == "heldcall" })
	if i < 0 {
		t.Fatalf("no heldcall analyzer among %v", names(as))
	}
	var c collector
	results := analysistest.Run(&c, analysistest.TestData(), as[i], pkg)
	for _, e := range c.errs {
		// Diagnostics without a want comment are expected here.
		if !strings.Contains(e, "unexpected diagnostic") {
			t.Errorf("%s", e)
		}
	}
	var cats []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			cats = append(cats, d.Category)
			if len(d.Related) > 0 {
				t.Errorf("%s: diagnostic %q has related locations: golangci-lint would report each as an issue", pkg, d.Message)
			}
		}
	}
	return cats
}

func TestPluginCategoryFilter(t *testing.T) {
	for _, c := range []struct {
		settings map[string]any
		want     []string
	}{
		{nil, []string{"sleep", "callback"}},
		{map[string]any{"enable": []any{"heldcall/sleep"}}, []string{"sleep"}},
		{map[string]any{"disable": []any{"heldcall/sleep"}}, []string{"callback"}},
		{map[string]any{"enable": []any{"heldcall"}, "disable": []any{"heldcall/callback"}}, []string{"sleep"}},
		{map[string]any{"enable": []any{"heldcall/sleep", "heldcall/callback"}}, []string{"sleep", "callback"}},
	} {
		p, err := lockaudit.New(c.settings)
		if err != nil {
			t.Fatal(err)
		}
		as, _ := p.BuildAnalyzers()
		if got := categories(t, as, "pluginfilter"); !slices.Equal(got, c.want) {
			t.Errorf("settings %v: categories %v, want %v", c.settings, got, c.want)
		}
	}
}

func TestPluginBlock(t *testing.T) {
	p, err := lockaudit.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	if got := categories(t, as, "pluginblock"); len(got) != 0 {
		t.Fatalf("before the block setting: categories %v, want none", got)
	}
	// The catalogue is process-wide: this entry stays for the other tests,
	// which do not look at package pluginblock.
	p, err = lockaudit.New(map[string]any{"block": []any{"pluginblock.Fetch=net"}})
	if err != nil {
		t.Fatal(err)
	}
	as, _ = p.BuildAnalyzers()
	if got := categories(t, as, "pluginblock"); !slices.Equal(got, []string{"net"}) {
		t.Errorf("with block pluginblock.Fetch=net: categories %v, want [net]", got)
	}
}

// TestPluginTestsSettings checks that heldcall-tests and shardlock-tests
// each turn on their own analyzer's tests flag, and only that one.
func TestPluginTestsSettings(t *testing.T) {
	for _, c := range []struct {
		setting string
		want    map[string]string
	}{
		{"heldcall-tests", map[string]string{"heldcall": "true", "shardlock": "false"}},
		{"shardlock-tests", map[string]string{"heldcall": "false", "shardlock": "true"}},
	} {
		t.Run(c.setting, func(t *testing.T) {
			t.Cleanup(func() {
				for _, a := range lockaudit.Analyzers() {
					if f := a.Flags.Lookup("tests"); f != nil {
						f.Value.Set("false")
					}
				}
			})
			if _, err := lockaudit.New(map[string]any{c.setting: true}); err != nil {
				t.Fatal(err)
			}
			for _, a := range lockaudit.Analyzers() {
				want, ok := c.want[a.Name]
				if !ok {
					continue
				}
				f := a.Flags.Lookup("tests")
				if f == nil {
					t.Fatalf("%s has no tests flag", a.Name)
				}
				if got := f.Value.String(); got != want {
					t.Errorf("%s: %s.tests = %s, want %s", c.setting, a.Name, got, want)
				}
			}
		})
	}
}
