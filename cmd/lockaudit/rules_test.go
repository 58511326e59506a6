package main

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

var testAnalyzers = []*analysis.Analyzer{{Name: "heldcall"}, {Name: "lockorder"}}

func TestSelectionDefaults(t *testing.T) {
	s, err := parseSelection("", "", testAnalyzers)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rule, cat string
		want      bool
	}{
		{"heldcall", "sleep", true},
		{"lockorder", "double-lock", true},
		{"shardlock", "above-shards", true},
		{"shardlock", "global-map", false},
		{"heldcall", "", true},
	} {
		if got := s.Allows(c.rule, c.cat); got != c.want {
			t.Errorf("allows(%s/%s) = %v, want %v", c.rule, c.cat, got, c.want)
		}
	}
}

func TestSelectionEnableDisable(t *testing.T) {
	s, err := parseSelection("heldcall/sleep, shardlock/global-map", "", testAnalyzers)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rule, cat string
		want      bool
	}{
		{"heldcall", "sleep", true},
		{"heldcall", "callback", false},
		{"lockorder", "double-lock", false},
		{"shardlock", "global-map", true},
		{"shardlock", "above-shards", false},
	} {
		if got := s.Allows(c.rule, c.cat); got != c.want {
			t.Errorf("enable: allows(%s/%s) = %v, want %v", c.rule, c.cat, got, c.want)
		}
	}
	if s.Runs("lockorder") || !s.Runs("heldcall") || !s.Runs("shardlock") {
		t.Error("enable: lockorder must not run, heldcall and shardlock must")
	}

	s, err = parseSelection("heldcall,lockorder", "heldcall/chan,lockorder", testAnalyzers)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Allows("heldcall", "sleep") || s.Allows("heldcall", "chan") || s.Allows("lockorder", "double-lock") || s.Allows("shardlock", "shard-order") {
		t.Error("enable rules, disable a category and a rule: wrong selection")
	}
	if s.Runs("lockorder") || !s.Runs("heldcall") {
		t.Error("enable heldcall,lockorder, disable lockorder: lockorder must not run, heldcall must")
	}

	// Enabling a rule does not turn on its advisory category.
	s, _ = parseSelection("shardlock", "", testAnalyzers)
	if s.Allows("shardlock", "global-map") || !s.Allows("shardlock", "above-shards") {
		t.Error("-enable shardlock: global-map must stay off, above-shards on")
	}
	// -disable wins.
	s, _ = parseSelection("heldcall/sleep", "heldcall", testAnalyzers)
	if s.Allows("heldcall", "sleep") || s.Runs("heldcall") {
		t.Error("-disable heldcall must win over -enable heldcall/sleep")
	}
}

func TestSelectionErrors(t *testing.T) {
	for _, c := range []struct{ enable, disable, want string }{
		{"nosuch", "", `-enable: unknown rule "nosuch"`},
		{"", "heldcall/nosuch", `-disable: unknown category "nosuch" of rule heldcall`},
		{"heldcall/", "", `-enable: empty category`},
	} {
		_, err := parseSelection(c.enable, c.disable, testAnalyzers)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseSelection(%q, %q) error = %v, want %q", c.enable, c.disable, err, c.want)
		}
	}
	// A rule that exists only as an analyzer accepts any category.
	if _, err := parseSelection("newrule/anything", "", []*analysis.Analyzer{{Name: "newrule"}}); err != nil {
		t.Errorf("analyzer-only rule: %v", err)
	}
}
