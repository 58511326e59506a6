package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// sampleReport returns a report with one finding (with a related location
// and a fix) in a file with a multi-byte character before the finding, and
// one error.
func sampleReport(t *testing.T) *report {
	t.Helper()
	dir := t.TempDir()
	src := "package p\n\nfunc F() {\n\ts := \"é\"; job()\n}\n"
	abs := writeFile(t, dir, "p/p.go", src)
	paths := &pathMapper{cwd: dir, root: dir}
	d := diag("example.com/p", "callback", abs, 4, 13, "mu held across call of func value job (locked at p.go:3)",
		jsonRelatedInfo{Posn: abs + ":3:1", End: abs + ":3:1", Message: "mu locked here"})
	d.SuggestedFixes = []jsonSuggestedFix{{Message: "release mu", Edits: []jsonTextEdit{{Filename: abs, Start: 34, End: 39, New: "x()"}}}}
	src2 := newSourceCache()
	fs := buildFindings([]vetDiagnostic{d}, findingOptions{sel: defaultSelection(t), tests: true}, src2, paths)
	return &report{
		Findings: fs,
		Errors:   []PackageError{{"example.com/broken", "broken.go:3:1: undefined: x"}},
		Rules:    []*analysis.Analyzer{{Name: "heldcall", Doc: "report things held\nacross calls\n\nLonger text.\n\nIntroduces code:\n\n\tcode()\n\nMore."}},
		paths:    paths,
		src:      src2,
	}
}

func TestTextOutput(t *testing.T) {
	var buf bytes.Buffer
	if err := writeText(&buf, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	want := "p/p.go:4:13: mu held across call of func value job (locked at p.go:3) (heldcall/callback)\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, &report{paths: &pathMapper{}}); err != nil {
		t.Fatal(err)
	}
	var empty map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &empty); err != nil {
		t.Fatal(err)
	}
	if string(empty["findings"]) != "[]" || string(empty["errors"]) != "[]" {
		t.Errorf("empty report: %s", buf.String())
	}

	buf.Reset()
	if err := writeJSON(&buf, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []map[string]any `json:"findings"`
		Errors   []map[string]any `json:"errors"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 1 || len(doc.Errors) != 1 {
		t.Fatalf("got %d findings, %d errors:\n%s", len(doc.Findings), len(doc.Errors), buf.String())
	}
	f := doc.Findings[0]
	want := map[string]any{
		"rule": "heldcall", "category": "callback", "severity": "warning",
		"message": "mu held across call of func value job (locked at p.go:3)",
		"file":    "p/p.go", "line": 4.0, "column": 13.0, "end_line": 4.0, "end_column": 13.0,
		"package": "example.com/p", "function": "F", "lock": "mu",
	}
	for k, v := range want {
		if f[k] != v {
			t.Errorf("%s = %v, want %v", k, f[k], v)
		}
	}
	for k := range f {
		if _, ok := want[k]; !ok && k != "related" && k != "fixes" {
			t.Errorf("unexpected field %q", k)
		}
	}
	related := f["related"].([]any)[0].(map[string]any)
	if related["file"] != "p/p.go" || related["line"] != 3.0 || related["message"] != "mu locked here" || len(related) != 3 {
		t.Errorf("related = %v", related)
	}
	fix := f["fixes"].([]any)[0].(map[string]any)
	edit := fix["edits"].([]any)[0].(map[string]any)
	wantEdit := map[string]any{"file": "p/p.go", "start_line": 4.0, "start_column": 13.0, "end_line": 4.0, "end_column": 18.0, "new_text": "x()"}
	if fix["message"] != "release mu" || len(edit) != len(wantEdit) {
		t.Errorf("fix = %v", fix)
	}
	for k, v := range wantEdit {
		if edit[k] != v {
			t.Errorf("edit %s = %v, want %v", k, edit[k], v)
		}
	}
	if e := doc.Errors[0]; e["package"] != "example.com/broken" || e["message"] != "broken.go:3:1: undefined: x" {
		t.Errorf("error = %v", e)
	}
}

// sarifDoc is the part of a SARIF log the tests check.
type sarifDoc struct {
	Version string `json:"version"`
	Schema  string `json:"$schema"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text, Markdown string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful        bool `json:"executionSuccessful"`
			ToolExecutionNotifications []struct {
				Level   string
				Message struct{ Text string }
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation sarifPhysicalLoc `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations []struct {
				ID               int              `json:"id"`
				PhysicalLocation sarifPhysicalLoc `json:"physicalLocation"`
				Message          struct{ Text string }
			} `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]string `json:"properties"`
			Fixes               []sarifFix        `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIFShape(t *testing.T) {
	var buf bytes.Buffer
	if err := writeSARIF(&buf, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "-1") {
		t.Errorf("SARIF contains -1:\n%s", buf.String())
	}
	var doc sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2.1.0" || !strings.Contains(doc.Schema, "sarif") || len(doc.Runs) != 1 {
		t.Fatalf("version %q, schema %q, %d runs", doc.Version, doc.Schema, len(doc.Runs))
	}
	run := doc.Runs[0]
	d := run.Tool.Driver
	if d.Name != "lockaudit" || len(d.Rules) != 1 || d.Rules[0].ID != "heldcall" {
		t.Fatalf("driver = %+v", d)
	}
	r := d.Rules[0]
	if r.ShortDescription.Text != "report things held across calls" {
		t.Errorf("shortDescription = %q", r.ShortDescription.Text)
	}
	if r.FullDescription.Text != "report things held across calls\n\nLonger text." {
		t.Errorf("fullDescription = %q (should stop before the paragraph introducing code)", r.FullDescription.Text)
	}
	if !strings.Contains(r.Help.Text, "More.") || !strings.Contains(r.Help.Markdown, "More.") {
		t.Errorf("help = %+v", r.Help)
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful || len(run.Invocations[0].ToolExecutionNotifications) != 1 {
		t.Errorf("invocations = %+v", run.Invocations)
	}
	if len(run.Results) != 1 {
		t.Fatalf("%d results", len(run.Results))
	}
	res := run.Results[0]
	if res.RuleID != "heldcall" || res.RuleIndex == nil || *res.RuleIndex != 0 || res.Level != "warning" || res.Message.Text == "" {
		t.Errorf("result = %+v", res)
	}
	loc := res.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "p/p.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("artifactLocation = %+v", loc.ArtifactLocation)
	}
	// Byte column 13 follows the two-byte "é": UTF-16 column 12.
	if loc.Region == nil || loc.Region.StartLine != 4 || loc.Region.StartColumn != 12 || loc.Region.EndLine != 4 {
		t.Errorf("region = %+v", loc.Region)
	}
	if len(res.RelatedLocations) != 1 || res.RelatedLocations[0].Message.Text != "mu locked here" ||
		res.RelatedLocations[0].PhysicalLocation.Region.StartLine != 3 {
		t.Errorf("relatedLocations = %+v", res.RelatedLocations)
	}
	if fp := res.PartialFingerprints[fingerprintKey]; fp == "" {
		t.Errorf("partialFingerprints = %v", res.PartialFingerprints)
	}
	if res.Properties["category"] != "callback" || res.Properties["function"] != "F" || res.Properties["lock"] != "mu" {
		t.Errorf("properties = %v", res.Properties)
	}
	if len(res.Fixes) != 1 || len(res.Fixes[0].ArtifactChanges) != 1 {
		t.Fatalf("fixes = %+v", res.Fixes)
	}
	rep := res.Fixes[0].ArtifactChanges[0].Replacements[0]
	if rep.DeletedRegion.StartLine != 4 || rep.DeletedRegion.StartColumn != 12 || rep.DeletedRegion.EndColumn != 17 ||
		rep.InsertedContent == nil || rep.InsertedContent.Text != "x()" {
		t.Errorf("replacement = %+v", rep)
	}
}

func TestSARIFEmpty(t *testing.T) {
	var buf bytes.Buffer
	r := &report{paths: &pathMapper{cwd: "/w", root: "/w"}, src: newSourceCache(), Rules: analyzers()}
	if err := writeSARIF(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc["runs"].([]any)[0].(map[string]any)
	if results, ok := run["results"].([]any); !ok || len(results) != 0 {
		t.Errorf("results = %v, want []", run["results"])
	}
	for _, rule := range run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any) {
		r := rule.(map[string]any)
		short := r["shortDescription"].(map[string]any)["text"].(string)
		full := r["fullDescription"].(map[string]any)["text"].(string)
		if short == "" || full == "" || len(short) > sarifDescriptionMax || len(full) > sarifDescriptionMax {
			t.Errorf("rule %v: descriptions %q / %q", r["id"], short, full)
		}
	}
}
