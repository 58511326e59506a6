package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ruleCategories lists every rule of DESIGN §2 with its categories
// (Diagnostic.Category values). A rule listed here may not have an analyzer
// yet; selecting it is then valid and simply finds nothing.
var ruleCategories = map[string][]string{
	"heldcall":  {"callback", "interface", "chan", "select", "sleep", "wait", "net", "file", "exec", "db", "blocks"},
	"lockorder": {"double-lock", "rlock-upgrade", "rlock-reentry", "order-cycle", "same-class"},
	"shardlock": {"above-shards", "shard-order", "global-map"},
}

// defaultOff lists the rule/category pairs that are advisory: reported only
// when named explicitly in -enable (enabling their whole rule is not enough).
var defaultOff = map[string]bool{
	"shardlock/global-map": true,
}

// A selection is the set of rules and categories to report, built from the
// -enable and -disable flags.
//
// Without -enable every category of every rule is reported except the
// default-off ones. With -enable, only what it lists is reported (as with go
// vet's -NAME flags): a rule name stands for its default-on categories, a
// rule/category for that category (default-off ones included). -disable then
// removes rules or categories; it wins over -enable.
type selection struct {
	explicit      bool            // -enable was given
	rules         map[string]bool // whole rules listed in -enable
	cats          map[string]bool // rule/category pairs listed in -enable
	disabledRules map[string]bool
	disabledCats  map[string]bool
}

// parseSelection validates -enable and -disable against the known rules (the
// DESIGN table plus the analyzers of this build) and returns the selection.
func parseSelection(enable, disable string, as []*analysis.Analyzer) (*selection, error) {
	known := make(map[string]bool)
	for r := range ruleCategories {
		known[r] = true
	}
	for _, a := range as {
		known[a.Name] = true
	}
	s := &selection{
		rules:         make(map[string]bool),
		cats:          make(map[string]bool),
		disabledRules: make(map[string]bool),
		disabledCats:  make(map[string]bool),
	}
	parse := func(flagName, list string, rules, cats map[string]bool) error {
		for _, item := range strings.Split(list, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			rule, cat, hasCat := strings.Cut(item, "/")
			if !known[rule] {
				return fmt.Errorf("-%s: unknown rule %q (rules: %s)", flagName, rule, strings.Join(sortedKeys(known), ", "))
			}
			if !hasCat {
				rules[rule] = true
				continue
			}
			if cat == "" {
				return fmt.Errorf("-%s: empty category in %q", flagName, item)
			}
			if cs, ok := ruleCategories[rule]; ok && !slices.Contains(cs, cat) {
				return fmt.Errorf("-%s: unknown category %q of rule %s (categories: %s)", flagName, cat, rule, strings.Join(cs, ", "))
			}
			cats[item] = true
		}
		return nil
	}
	if err := parse("enable", enable, s.rules, s.cats); err != nil {
		return nil, err
	}
	s.explicit = len(s.rules)+len(s.cats) > 0
	if err := parse("disable", disable, s.disabledRules, s.disabledCats); err != nil {
		return nil, err
	}
	return s, nil
}

// allows reports whether a finding of the given rule and category is reported.
func (s *selection) allows(rule, category string) bool {
	key := rule + "/" + category
	switch {
	case s.disabledRules[rule] || s.disabledCats[key]:
		return false
	case s.cats[key]:
		return true
	case defaultOff[key]:
		return false
	case !s.explicit:
		return true
	default:
		return s.rules[rule]
	}
}

// runs reports whether the analyzer for rule needs to run at all.
func (s *selection) runs(rule string) bool {
	if s.disabledRules[rule] {
		return false
	}
	if !s.explicit || s.rules[rule] {
		return true
	}
	for key := range s.cats {
		if strings.HasPrefix(key, rule+"/") && !s.disabledCats[key] {
			return true
		}
	}
	return false
}

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
