package rules

import (
	"strings"
	"testing"
)

func TestSelection(t *testing.T) {
	for _, c := range []struct {
		enable, disable []string
		allowed         []string // rule/category pairs allowed, of those checked
		runs            []string // rules whose analyzer runs
	}{
		{
			allowed: []string{"heldcall/sleep", "heldcall/callback", "heldcall/chan", "heldcall/unlisted", "lockorder/double-lock", "shardlock/above-shards"},
			runs:    []string{"heldcall", "lockorder", "shardlock"},
		},
		{
			enable:  []string{"heldcall/sleep", "shardlock/global-map"},
			allowed: []string{"heldcall/sleep", "shardlock/global-map"},
			runs:    []string{"heldcall", "shardlock"},
		},
		{
			enable:  []string{"heldcall,lockorder"},
			disable: []string{"heldcall/chan", "lockorder"},
			allowed: []string{"heldcall/sleep", "heldcall/callback", "heldcall/unlisted"},
			runs:    []string{"heldcall"},
		},
		{
			enable:  []string{"heldcall"},
			allowed: []string{"heldcall/sleep", "heldcall/callback", "heldcall/chan", "heldcall/unlisted"},
			runs:    []string{"heldcall"},
		},
		{
			enable:  []string{"heldcall/sleep"},
			disable: []string{"heldcall/sleep"},
			runs:    nil,
		},
	} {
		s, err := Parse(c.enable, c.disable)
		if err != nil {
			t.Fatalf("enable %q disable %q: %v", c.enable, c.disable, err)
		}
		allowed := set(c.allowed)
		for _, key := range []string{"heldcall/sleep", "heldcall/callback", "heldcall/chan", "heldcall/unlisted",
			"lockorder/double-lock", "shardlock/above-shards", "shardlock/global-map"} {
			rule, cat, _ := strings.Cut(key, "/")
			if got := s.Allows(rule, cat); got != allowed[key] {
				t.Errorf("enable %q disable %q: Allows(%s) = %v", c.enable, c.disable, key, got)
			}
		}
		runs := set(c.runs)
		for rule := range Categories {
			if got := s.Runs(rule); got != runs[rule] {
				t.Errorf("enable %q disable %q: Runs(%s) = %v", c.enable, c.disable, rule, got)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		enable, disable []string
		want            string
	}{
		{[]string{"nosuch"}, nil, `enable: unknown rule "nosuch"`},
		{nil, []string{"heldcall/nosuch"}, `disable: unknown category "nosuch" of rule heldcall`},
		{[]string{"heldcall/"}, nil, `enable: empty category in "heldcall/"`},
	} {
		_, err := Parse(c.enable, c.disable)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q, %q) = %v, want an error containing %q", c.enable, c.disable, err, c.want)
		}
	}
	// Extra rule names (analyzers of the build) are accepted, with any
	// category.
	if _, err := Parse([]string{"newrule/x"}, nil, "newrule"); err != nil {
		t.Errorf("extra rule: %v", err)
	}
}

func set(list []string) map[string]bool {
	m := make(map[string]bool)
	for _, s := range list {
		m[s] = true
	}
	return m
}
