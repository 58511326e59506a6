package lockaudit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/rules"
)

// This file is the golangci-lint module plugin (DESIGN §5). A custom
// golangci-lint binary that imports this package runs lockaudit's analyzers as
// the linter "lockaudit", configured in .golangci.yml:
//
//	linters:
//	  enable: [lockaudit]
//	  settings:
//	    custom:
//	      lockaudit:
//	        type: module
//	        settings:
//	          disable: [heldcall/callback]
//	          block: ["example.com/db.(*Client).Query=db"]
//	          severity: note

func init() {
	register.Plugin("lockaudit", New)
}

// Settings are the plugin's settings in .golangci.yml. They mirror the flags
// of lockaudit check; unknown keys are an error.
type Settings struct {
	// Enable limits the findings to these rules or rule/categories, like
	// -enable: a rule stands for its default-on categories, rule/category for
	// that category (advisory ones included).
	Enable []string `json:"enable"`
	// Disable removes rules or rule/categories, like -disable; it wins over
	// Enable.
	Disable []string `json:"disable"`
	// Block adds functions to the blocking catalogue, like -block: each entry
	// is name=category, with name as types.Func.FullName prints it, for
	// example "example.com/db.(*Client).Query=db".
	Block []string `json:"block"`
	// Severity is the lowest confidence reported, like -severity:
	// "warning" (proven findings, the default) or "note" (plausible ones
	// too).
	Severity string `json:"severity"`
	// HeldcallTests reports heldcall findings in _test.go files too, like
	// -heldcall.tests (lockorder's always are).
	HeldcallTests bool `json:"heldcall-tests"`
	// ShardlockTests reports shardlock's above-shards findings in _test.go
	// files too, like -shardlock.tests (shard-order's always are).
	ShardlockTests bool `json:"shardlock-tests"`
}

// Plugin is lockaudit's golangci-lint plugin, built by New from validated
// settings.
type Plugin struct {
	sel *rules.Selection
}

// New is the plugin constructor registered with golangci-lint. It decodes
// settings strictly, validates the rules and blocking entries, and adds the
// entries to the heldcall analyzer's blocking catalogue.
//
// The catalogue is process-wide (analyzer flags are global in every analysis
// driver), so entries added by New stay for the life of the process.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("lockaudit: %w", err)
	}
	as := Analyzers()
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.Name
	}
	sel, err := rules.Parse(s.Enable, s.Disable, names...)
	if err != nil {
		return nil, fmt.Errorf("lockaudit: %w", err)
	}
	if len(s.Block) > 0 {
		if err := addBlocking(as, s.Block); err != nil {
			return nil, fmt.Errorf("lockaudit: block: %w", err)
		}
	}
	if s.Severity != "" {
		if err := setFlag(as, "severity", s.Severity); err != nil {
			return nil, fmt.Errorf("lockaudit: severity: %w", err)
		}
	}
	for _, t := range []struct {
		analyzer string
		on       bool
	}{{"heldcall", s.HeldcallTests}, {"shardlock", s.ShardlockTests}} {
		if !t.on {
			continue
		}
		if err := setFlag(analyzerNamed(as, t.analyzer), "tests", "true"); err != nil {
			return nil, fmt.Errorf("lockaudit: %s-tests: %w", t.analyzer, err)
		}
	}
	return &Plugin{sel: sel}, nil
}

// setFlag sets the analyzers' flag name (process-wide, like every analyzer
// flag) to value.
func setFlag(as []*analysis.Analyzer, name, value string) error {
	set := false
	for _, a := range as {
		if f := a.Flags.Lookup(name); f != nil {
			if err := f.Value.Set(value); err != nil {
				return err
			}
			set = true
		}
	}
	if !set {
		return fmt.Errorf("no analyzer of this build has a %s flag", name)
	}
	return nil
}

// analyzerNamed returns the analyzer of as called name, alone, or none.
func analyzerNamed(as []*analysis.Analyzer, name string) []*analysis.Analyzer {
	for _, a := range as {
		if a.Name == name {
			return []*analysis.Analyzer{a}
		}
	}
	return nil
}

// addBlocking validates the name=category entries and sets them on the
// heldcall analyzer's block flag, which feeds its blocking catalogue.
func addBlocking(as []*analysis.Analyzer, entries []string) error {
	for _, e := range entries {
		if name, cat, ok := strings.Cut(e, "="); !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(cat) == "" {
			return fmt.Errorf("%q is not name=category", e)
		}
	}
	for _, a := range as {
		if a.Name != "heldcall" {
			continue
		}
		f := a.Flags.Lookup("block")
		if f == nil {
			return errors.New("the heldcall analyzer of this build has no block flag")
		}
		// Set validates the whole list before adding any of it.
		return f.Value.Set(strings.Join(entries, ","))
	}
	return errors.New("this build has no heldcall analyzer")
}

// BuildAnalyzers returns the analyzers of the selected rules, each wrapped
// for golangci-lint: the wrapper keeps the analyzer's name, flags, facts and
// requirements, drops the diagnostics of categories the settings do not
// select, and drops the related locations (the lock site). golangci-lint
// turns every related location into an issue of its own, which would count
// each finding twice and survive a //nolint:lockaudit on the finding's line;
// the message already says where the lock was taken.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	var out []*analysis.Analyzer
	for _, a := range Analyzers() {
		if p.sel.Runs(a.Name) {
			out = append(out, forGolangci(a, p.sel))
		}
	}
	return out, nil
}

// GetLoadMode tells golangci-lint that the analyzers need type information.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// forGolangci returns a copy of a whose Run reports only the diagnostics
// whose category sel allows, without their related locations.
func forGolangci(a *analysis.Analyzer, sel *rules.Selection) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		report := pass.Report
		p.Report = func(d analysis.Diagnostic) {
			if sel.Allows(a.Name, d.Category) {
				d.Related = nil
				report(d)
			}
		}
		return a.Run(&p)
	}
	return &w
}
