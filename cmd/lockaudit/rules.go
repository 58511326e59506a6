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

// parseSelection validates -enable and -disable against the known rules (the
// DESIGN table plus the analyzers of this build) and returns the selection,
// with internal/rules' semantics: without -enable every category of every
// rule except the default-off ones; with it, only what it lists (as with go
// vet's -NAME flags); -disable wins over -enable.
func parseSelection(enable, disable string, as []*analysis.Analyzer) (*rules.Selection, error) {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.Name
	}
	s, err := rules.Parse([]string{enable}, []string{disable}, names...)
	if err != nil {
		return nil, flagError{err}
	}
	return s, nil
}

// flagError renders internal/rules' "enable: ..." errors as the flags they
// come from, "-enable: ...".
type flagError struct{ err error }

func (e flagError) Error() string { return "-" + e.err.Error() }
func (e flagError) Unwrap() error { return e.err }

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
