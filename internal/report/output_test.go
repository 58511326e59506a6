package report_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/testfile"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit"
	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/internal/report/sariftest"
)

// sarifDescriptionMax is GitHub's limit on a rule's description texts.
const sarifDescriptionMax = 1024

// writeFile writes content to dir/name and returns the absolute name.
var writeFile = testfile.Write

// sampleReport returns a report with one finding (with a related location
// and a fix) in a file with a multi-byte character before the finding, and
// one error.
func sampleReport(t *testing.T) *report.Report {
	t.Helper()
	dir := t.TempDir()
	src := "package p\n\nfunc F() {\n\ts := \"é\"; job()\n}\n"
	abs := writeFile(t, dir, "p/p.go", src)
	// The finding as check builds it from the analyzer's diagnostic at
	// 4:13 (byte column; UTF-16 column 12) with the lock at 3:1 and a fix
	// replacing bytes 34 to 39, "job()".
	fs := []report.Finding{{
		Rule: "heldcall", Category: "callback", Severity: "warning",
		Message: "mu held across call of func value job (locked at p.go:3)",
		File:    "p/p.go", Line: 4, Column: 13, EndLine: 4, EndColumn: 13,
		Package: "example.com/p", Function: "F", Lock: "mu", Abs: abs,
		Related: []report.Related{{File: "p/p.go", Line: 3, Column: 1, EndLine: 3, EndColumn: 1, Message: "mu locked here", Abs: abs}},
		Fixes: []report.Fix{{Message: "release mu", Edits: []report.Edit{{
			File: "p/p.go", Start: 34, End: 39, StartLine: 4, StartColumn: 13, EndLine: 4, EndColumn: 18, NewText: "x()", Abs: abs,
		}}}},
	}}
	report.AssignFingerprints(fs)
	return &report.Report{
		Findings: fs,
		Errors:   []report.PackageError{{Package: "example.com/broken", Message: "broken.go:3:1: undefined: x"}},
		Rules:    []*analysis.Analyzer{{Name: "heldcall", Doc: "report things held\nacross calls\n\nLonger text.\n\nIntroduces code:\n\n\tcode()\n\nMore."}},
		Paths:    &report.Paths{Cwd: dir, Root: dir},
		Sources:  report.NewSources(),
	}
}

func TestTextOutput(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport(t).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	want := "p/p.go:4:13: mu held across call of func value job (locked at p.go:3) (heldcall/callback)\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	if err := (&report.Report{Paths: &report.Paths{}}).WriteJSON(&buf); err != nil {
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
	if err := sampleReport(t).WriteJSON(&buf); err != nil {
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

func TestSARIFShape(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport(t).WriteSARIF(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "-1") {
		t.Errorf("SARIF contains -1:\n%s", buf.String())
	}
	var doc sariftest.Doc
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
	if fp := res.PartialFingerprints[report.FingerprintKey]; fp == "" {
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
	r := &report.Report{Paths: &report.Paths{Cwd: "/w", Root: "/w"}, Sources: report.NewSources(), Rules: lockaudit.Analyzers()}
	if err := r.WriteSARIF(&buf); err != nil {
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

// TestSARIFRuleIndex checks that every result's ruleIndex points at its rule
// when there are several rules, including a rule reported without analyzer
// metadata, and that the sample report passes the GitHub checks.
func TestSARIFRuleIndex(t *testing.T) {
	dir := t.TempDir()
	abs := writeFile(t, dir, "p/p.go", "package p\n\nfunc F() {\n\tx()\n\ty()\n\tz()\n}\n")
	category := map[string]string{"heldcall": "callback", "lockorder": "double-lock", "shardlock": "above-shards"}
	var fs []report.Finding
	for line, rule := range map[int]string{4: "lockorder", 5: "shardlock", 6: "heldcall"} {
		fs = append(fs, report.Finding{
			Rule: rule, Category: category[rule], Severity: "warning", Message: rule + " finding",
			File: "p/p.go", Line: line, Column: 2, EndLine: line, EndColumn: 2,
			Package: "example.com/p", Function: "F", Lock: "mu", Abs: abs,
			Related: []report.Related{{File: "p/p.go", Line: 3, Column: 1, EndLine: 3, EndColumn: 1, Message: "mu locked here", Abs: abs}},
		})
	}
	report.SortFindings(fs)
	report.AssignFingerprints(fs)
	rep := &report.Report{
		Findings: fs,
		Rules: []*analysis.Analyzer{
			{Name: "heldcall", Doc: "report held calls\n\nLonger."},
			{Name: "lockorder", Doc: "report lock order problems\n\nLonger."},
		},
		Paths:   &report.Paths{Cwd: dir, Root: dir},
		Sources: report.NewSources(),
	}
	var buf bytes.Buffer
	if err := rep.WriteSARIF(&buf); err != nil {
		t.Fatal(err)
	}
	results := sariftest.CheckGitHub(t, buf.Bytes())
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}
	// Sorted by line: lockorder (rule 1), shardlock (added as rule 2), heldcall (rule 0).
	for i, want := range []float64{1, 2, 0} {
		if got := results[i]["ruleIndex"]; got != want {
			t.Errorf("result %d (%v): ruleIndex %v, want %v", i, results[i]["ruleId"], got, want)
		}
	}

	buf.Reset()
	if err := sampleReport(t).WriteSARIF(&buf); err != nil {
		t.Fatal(err)
	}
	if results := sariftest.CheckGitHub(t, buf.Bytes()); len(results) != 1 || len(sariftest.ListOpt(t, results[0], "fixes")) != 1 {
		t.Errorf("sample report: %d results, want 1 with a fix", len(results))
	}
}

// TestSARIFCheckerCatches makes sure sariftest.CheckGitHub fails on the
// defects it is there to catch.
func TestSARIFCheckerCatches(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport(t).WriteSARIF(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for _, c := range []struct{ name, old, new string }{
		{"absolute uri", `"uri": "p/p.go"`, `"uri": "/p/p.go"`},
		{"file uri", `"uri": "p/p.go"`, `"uri": "file:///w/p/p.go"`},
		{"bad ruleIndex", `"ruleIndex": 0`, `"ruleIndex": 3`},
		{"no fingerprint", `"partialFingerprints": {`, `"partialFingerprints": {"x": "y"}, "unused": {`},
		{"line 0", `"startLine": 4`, `"startLine": 0`},
		{"no help", `"help": {`, `"help": {"text": ""}, "unusedHelp": {`},
	} {
		if !strings.Contains(good, c.old) {
			t.Fatalf("%s: %q not in the SARIF output", c.name, c.old)
		}
		bad := strings.Replace(good, c.old, c.new, 1)
		rec := &recorder{}
		done := make(chan struct{})
		go func() { // Fatalf ends this goroutine
			defer close(done)
			sariftest.CheckGitHub(rec, []byte(bad))
		}()
		<-done
		if !rec.failed {
			t.Errorf("%s: sariftest.CheckGitHub accepts the defect", c.name)
		}
	}
}

// recorder is a sariftest.TB that records failure; Fatalf ends its goroutine.
type recorder struct{ failed bool }

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; runtime.Goexit() }
