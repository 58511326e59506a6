package main

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/rules"
)

// The golangci-lint plugin selects rules with internal/rules; the command
// with its own parseSelection. They must agree on the rule table and on the
// meaning of every -enable/-disable combination.
func TestRulesParityWithPlugin(t *testing.T) {
	if !maps.EqualFunc(ruleCategories, rules.Categories, slices.Equal) {
		t.Errorf("rule tables differ:\ncmd:    %v\nplugin: %v", ruleCategories, rules.Categories)
	}
	if !maps.Equal(defaultOff, rules.DefaultOff) {
		t.Errorf("default-off tables differ:\ncmd:    %v\nplugin: %v", defaultOff, rules.DefaultOff)
	}
	items := []string{"", "heldcall", "heldcall/sleep", "heldcall/callback", "lockorder", "shardlock/global-map", "shardlock"}
	for _, enable := range items {
		for _, disable := range items {
			cmdSel, err1 := parseSelection(enable, disable, analyzers())
			plugSel, err2 := rules.Parse([]string{enable}, []string{disable})
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("enable %q disable %q: errors %v / %v", enable, disable, err1, err2)
			}
			for rule, cats := range ruleCategories {
				if cmdSel.runs(rule) != plugSel.Runs(rule) {
					t.Errorf("enable %q disable %q: runs(%s) %v / %v", enable, disable, rule, cmdSel.runs(rule), plugSel.Runs(rule))
				}
				for _, cat := range append(slices.Clone(cats), "unlisted") {
					if cmdSel.allows(rule, cat) != plugSel.Allows(rule, cat) {
						t.Errorf("enable %q disable %q: allows(%s/%s) %v / %v", enable, disable, rule, cat, cmdSel.allows(rule, cat), plugSel.Allows(rule, cat))
					}
				}
			}
		}
	}
	if _, err := rules.Parse([]string{"heldcall/nosuch"}, nil); err == nil || !strings.Contains(err.Error(), "unknown category") {
		t.Errorf("plugin accepts an unknown category: %v", err)
	}
}
