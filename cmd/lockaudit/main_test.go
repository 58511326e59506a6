package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDispatchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"profile", "-format", "sarif"}, `-format: unknown format "sarif" (want text, json, markdown or html)`},
		{[]string{"profile", "-max-increase", "5"}, "-max-increase needs -baseline"},
		{[]string{"fmt"}, `unknown command "fmt"`},
		{[]string{"version", "extra"}, "version takes no arguments"},
		{[]string{"check", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"-format", "xml"}, `-format: unknown format "xml"`},
		{[]string{"-diff", "-format", "json"}, "-diff prints a unified diff"},
		{[]string{"-enable", "nosuch"}, `-enable: unknown rule "nosuch"`},
		{[]string{"-tests=maybe"}, `invalid boolean value "maybe" for -tests`},
		{[]string{"./...", "-format", "json"}, "flag -format after the packages"},
		{[]string{"-block", "nonsense"}, `-block: "nonsense" is not name=category`},
		{[]string{"-baseline", "/nonexistent/baseline.json"}, "-baseline: open /nonexistent/baseline.json"},
	} {
		var stdout, stderr bytes.Buffer
		code := dispatch(c.args, &stdout, &stderr)
		if code != exitError {
			t.Errorf("%q: exit %d, want %d", c.args, code, exitError)
		}
		msg := stderr.String()
		if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "lockaudit: ") || !strings.Contains(msg, c.want) {
			t.Errorf("%q: stderr %q, want one line containing %q", c.args, msg, c.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", c.args, stdout.String())
		}
	}
}

func TestDispatchHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"check", "-h"}, {"-help"}} {
		var stdout, stderr bytes.Buffer
		if code := dispatch(args, &stdout, &stderr); code != exitClean || !strings.Contains(stdout.String(), "lockaudit") || stderr.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"version"}, &stdout, &stderr); code != exitClean || !strings.HasPrefix(stdout.String(), "lockaudit ") || !strings.Contains(stdout.String(), " go1.") {
		t.Errorf("version: exit %d, %q", code, stdout.String())
	}
}

func TestLooksLikePattern(t *testing.T) {
	for arg, want := range map[string]bool{
		"./...": true, ".": true, "example.com/x": true, "std": true, "all": true,
		"x/...": true, "main.go": true, "profile": false, "fmt": false, "chek": false,
	} {
		if got := looksLikePattern(arg); got != want {
			t.Errorf("looksLikePattern(%q) = %v, want %v", arg, got, want)
		}
	}
}
