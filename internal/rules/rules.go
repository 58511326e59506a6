// Package rules knows lockaudit's rule names and categories (DESIGN §2) and
// implements the -enable/-disable selection semantics, for the command
// (lockaudit check) and the golangci-lint plugin in the root package alike.
//
// Without an enable list every category of every rule is reported except the
// default-off (advisory) ones; with one, only what it lists is reported. A
// rule name stands for its default-on categories, rule/category for that one
// category (default-off ones included). The disable list then removes rules
// or categories and wins over the enable list.
package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Categories lists every rule of DESIGN §2 with its categories
// (analysis.Diagnostic.Category values). A rule listed here may not have an
// analyzer in this build yet; selecting it is valid and finds nothing.
var Categories = map[string][]string{
	"heldcall":  {"callback", "interface", "chan", "select", "sleep", "wait", "net", "file", "exec", "db", "blocks"},
	"lockorder": {"double-lock", "rlock-upgrade", "rlock-reentry", "order-cycle", "same-class", "leak", "double-unlock"},
	"shardlock": {"above-shards", "shard-order", "global-map"},
}

// DefaultOff lists the advisory rule/category pairs: reported only when an
// enable list names them (enabling their whole rule is not enough).
var DefaultOff = map[string]bool{
	"shardlock/global-map": true,
}

// A Selection is the set of rules and categories to report.
type Selection struct {
	explicit      bool            // an enable list was given
	rules         map[string]bool // whole rules enabled
	cats          map[string]bool // rule/category pairs enabled
	disabledRules map[string]bool
	disabledCats  map[string]bool
}

// Parse validates the enable and disable lists (items are "rule" or
// "rule/category"; an item may itself be a comma-separated list, as on the
// command line) against the rules of DESIGN §2 plus extra rule names (the
// analyzers of the build) and returns the selection. Errors name the list
// they come from as "enable" or "disable".
func Parse(enable, disable []string, extra ...string) (*Selection, error) {
	known := make(map[string]bool)
	for r := range Categories {
		known[r] = true
	}
	for _, r := range extra {
		known[r] = true
	}
	s := &Selection{
		rules:         make(map[string]bool),
		cats:          make(map[string]bool),
		disabledRules: make(map[string]bool),
		disabledCats:  make(map[string]bool),
	}
	parse := func(listName string, list []string, rules, cats map[string]bool) error {
		for _, item := range strings.Split(strings.Join(list, ","), ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			rule, cat, hasCat := strings.Cut(item, "/")
			if !known[rule] {
				return fmt.Errorf("%s: unknown rule %q (rules: %s)", listName, rule, strings.Join(sortedKeys(known), ", "))
			}
			if !hasCat {
				rules[rule] = true
				continue
			}
			if cat == "" {
				return fmt.Errorf("%s: empty category in %q", listName, item)
			}
			if cs, ok := Categories[rule]; ok && !slices.Contains(cs, cat) {
				return fmt.Errorf("%s: unknown category %q of rule %s (categories: %s)", listName, cat, rule, strings.Join(cs, ", "))
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

// Allows reports whether a finding of rule and category is reported.
func (s *Selection) Allows(rule, category string) bool {
	key := rule + "/" + category
	switch {
	case s.disabledRules[rule] || s.disabledCats[key]:
		return false
	case s.cats[key]:
		return true
	case DefaultOff[key]:
		return false
	case !s.explicit:
		return true
	default:
		return s.rules[rule]
	}
}

// Runs reports whether the analyzer of rule needs to run at all.
func (s *Selection) Runs(rule string) bool {
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

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
