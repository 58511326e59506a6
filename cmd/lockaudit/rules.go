package main

import (
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/rules"
)

// ruleCategories and defaultOff are the rule table of DESIGN §2, shared with
// the golangci-lint plugin through internal/rules.
var (
	ruleCategories = rules.Categories
	defaultOff     = rules.DefaultOff
)

// A selection is the set of rules and categories to report, built from the
// -enable and -disable flags with internal/rules' semantics: without -enable
// every category of every rule except the default-off ones; with it, only
// what it lists (as with go vet's -NAME flags); -disable wins over -enable.
type selection struct{ *rules.Selection }

// parseSelection validates -enable and -disable against the known rules (the
// DESIGN table plus the analyzers of this build) and returns the selection.
func parseSelection(enable, disable string, as []*analysis.Analyzer) (*selection, error) {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.Name
	}
	s, err := rules.Parse([]string{enable}, []string{disable}, names...)
	if err != nil {
		return nil, flagError{err}
	}
	return &selection{s}, nil
}

// flagError renders internal/rules' "enable: ..." errors as the flags they
// come from, "-enable: ...".
type flagError struct{ err error }

func (e flagError) Error() string { return "-" + e.err.Error() }
func (e flagError) Unwrap() error { return e.err }

// allows reports whether a finding of the given rule and category is reported.
func (s *selection) allows(rule, category string) bool { return s.Allows(rule, category) }

// runs reports whether the analyzer for rule needs to run at all.
func (s *selection) runs(rule string) bool { return s.Runs(rule) }

// analyzerFlags returns the unitchecker flags that turn off the analyzers the
// selection does not need (-NAME=false; unitchecker runs all analyzers not
// set to false). Category filtering happens on the results.
func (s *selection) analyzerFlags(as []*analysis.Analyzer) []string {
	var flags []string
	for _, a := range as {
		if !s.runs(a.Name) {
			flags = append(flags, "-"+a.Name+"=false")
		}
	}
	return flags
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
