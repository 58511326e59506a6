package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// tb is the part of testing.TB the SARIF checks use, so that a test can
// check that they fail.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// recorder is a tb that records failure; Fatalf ends its goroutine.
type recorder struct{ failed bool }

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; runtime.Goexit() }

// checkGitHubSARIF checks a SARIF log against what GitHub code scanning
// requires of an upload, reading the raw JSON (not lockaudit's own structs,
// which could hide a missing or misnamed field). There is no network here,
// so no schema: the fields are checked one by one. It returns the results,
// for further checks.
func checkGitHubSARIF(t tb, data []byte) []map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if doc["version"] != "2.1.0" {
		t.Errorf("version = %v, want 2.1.0", doc["version"])
	}
	if s, _ := doc["$schema"].(string); !strings.Contains(s, "sarif") {
		t.Errorf("$schema = %v", doc["$schema"])
	}
	if bytes.Contains(data, []byte(": -1")) {
		t.Errorf("SARIF has a -1 value: GitHub requires non-negative ids and indexes")
	}
	runs := list(t, doc, "runs")
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	run := runs[0]
	driver := obj(t, obj(t, run, "tool"), "driver")
	if driver["name"] != "lockaudit" {
		t.Errorf("tool.driver.name = %v", driver["name"])
	}
	rules := list(t, driver, "rules")
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = str(t, r, "id")
		for _, k := range []string{"shortDescription", "fullDescription", "help"} {
			text := str(t, obj(t, r, k), "text")
			if text == "" || (k != "help" && len(text) > 1024) {
				t.Errorf("rule %s: %s.text has %d bytes (want 1 to 1024 for descriptions)", ids[i], k, len(text))
			}
		}
	}
	var results []map[string]any
	for _, res := range list(t, run, "results") {
		ruleID := str(t, res, "ruleId")
		where := fmt.Sprintf("result %s %q", ruleID, obj(t, res, "message")["text"])
		idx, ok := res["ruleIndex"].(float64)
		if !ok || idx < 0 || int(idx) >= len(rules) || ids[int(idx)] != ruleID {
			t.Errorf("%s: ruleIndex %v does not point at rule %s in %v", where, res["ruleIndex"], ruleID, ids)
		}
		if str(t, obj(t, res, "message"), "text") == "" {
			t.Errorf("%s: empty message.text", where)
		}
		locs := list(t, res, "locations")
		if len(locs) != 1 {
			t.Errorf("%s: %d locations, want 1", where, len(locs))
		}
		for _, loc := range locs {
			checkLocation(t, where, obj(t, loc, "physicalLocation"))
		}
		for _, rel := range listOpt(t, res, "relatedLocations") {
			checkLocation(t, where+" related", obj(t, rel, "physicalLocation"))
			if id, ok := rel["id"].(float64); !ok || id < 0 {
				t.Errorf("%s: related location id %v", where, rel["id"])
			}
			if str(t, obj(t, rel, "message"), "text") == "" {
				t.Errorf("%s: related location without a message", where)
			}
		}
		fps := obj(t, res, "partialFingerprints")
		if fp, _ := fps[fingerprintKey].(string); fp == "" {
			t.Errorf("%s: partialFingerprints = %v", where, fps)
		}
		for _, fix := range listOpt(t, res, "fixes") {
			if str(t, obj(t, fix, "description"), "text") == "" {
				t.Errorf("%s: fix without a description", where)
			}
			changes := list(t, fix, "artifactChanges")
			if len(changes) == 0 {
				t.Errorf("%s: fix without artifactChanges", where)
			}
			for _, ch := range changes {
				checkURI(t, where+" fix", obj(t, ch, "artifactLocation"))
				for _, rep := range list(t, ch, "replacements") {
					if line, _ := obj(t, rep, "deletedRegion")["startLine"].(float64); line < 1 {
						t.Errorf("%s: fix replacement startLine %v", where, line)
					}
				}
			}
		}
		results = append(results, res)
	}
	return results
}

// checkLocation checks a physical location: a repository-relative URI and a
// region starting on a real line.
func checkLocation(t tb, where string, loc map[string]any) {
	t.Helper()
	checkURI(t, where, obj(t, loc, "artifactLocation"))
	if line, _ := obj(t, loc, "region")["startLine"].(float64); line < 1 {
		t.Errorf("%s: region.startLine = %v, want >= 1", where, line)
	}
}

// checkURI checks that an artifact location is relative to the source root.
func checkURI(t tb, where string, art map[string]any) {
	t.Helper()
	uri := str(t, art, "uri")
	if uri == "" || strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "file:") || strings.Contains(uri, "..") {
		t.Errorf("%s: artifactLocation.uri %q is not repository-relative", where, uri)
	}
	if art["uriBaseId"] != srcRoot {
		t.Errorf("%s: uriBaseId = %v, want %s", where, art["uriBaseId"], srcRoot)
	}
}

func obj(t tb, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("%q is %T, want an object", key, m[key])
	}
	return v
}

func list(t tb, m map[string]any, key string) []map[string]any {
	t.Helper()
	v, ok := m[key].([]any)
	if !ok {
		t.Fatalf("%q is %T, want an array", key, m[key])
	}
	out := make([]map[string]any, len(v))
	for i, e := range v {
		if out[i], ok = e.(map[string]any); !ok {
			t.Fatalf("%q[%d] is %T, want an object", key, i, e)
		}
	}
	return out
}

// listOpt is list for an optional array.
func listOpt(t tb, m map[string]any, key string) []map[string]any {
	t.Helper()
	if _, ok := m[key]; !ok {
		return nil
	}
	return list(t, m, key)
}

func str(t tb, m map[string]any, key string) string {
	t.Helper()
	v, ok := m[key].(string)
	if !ok {
		t.Fatalf("%q is %T, want a string", key, m[key])
	}
	return v
}

// TestSARIFRuleIndex checks that every result's ruleIndex points at its rule
// when there are several rules, including a rule reported without analyzer
// metadata, and that the sample report passes the GitHub checks.
func TestSARIFRuleIndex(t *testing.T) {
	dir := t.TempDir()
	abs := writeFile(t, dir, "p/p.go", "package p\n\nfunc F() {\n\tx()\n\ty()\n\tz()\n}\n")
	d := func(rule string, line int) vetDiagnostic {
		v := diag("example.com/p", "", abs, line, 2, rule+" finding",
			jsonRelatedInfo{Posn: abs + ":3:1", End: abs + ":3:1", Message: "mu locked here"})
		v.Analyzer = rule
		switch rule {
		case "heldcall":
			v.Category = "callback"
		case "lockorder":
			v.Category = "double-lock"
		case "shardlock":
			v.Category = "above-shards"
		}
		return v
	}
	paths := &pathMapper{cwd: dir, root: dir}
	src := newSourceCache()
	fs := buildFindings([]vetDiagnostic{d("lockorder", 4), d("shardlock", 5), d("heldcall", 6)},
		findingOptions{sel: defaultSelection(t), tests: true}, src, paths)
	rep := &report{
		Findings: fs,
		Rules: []*analysis.Analyzer{
			{Name: "heldcall", Doc: "report held calls\n\nLonger."},
			{Name: "lockorder", Doc: "report lock order problems\n\nLonger."},
		},
		paths: paths,
		src:   src,
	}
	var buf bytes.Buffer
	if err := writeSARIF(&buf, rep); err != nil {
		t.Fatal(err)
	}
	results := checkGitHubSARIF(t, buf.Bytes())
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
	if err := writeSARIF(&buf, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	if results := checkGitHubSARIF(t, buf.Bytes()); len(results) != 1 || len(listOpt(t, results[0], "fixes")) != 1 {
		t.Errorf("sample report: %d results, want 1 with a fix", len(results))
	}
}

// TestSARIFCheckerCatches makes sure checkGitHubSARIF fails on the defects it
// is there to catch.
func TestSARIFCheckerCatches(t *testing.T) {
	var buf bytes.Buffer
	if err := writeSARIF(&buf, sampleReport(t)); err != nil {
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
			checkGitHubSARIF(rec, []byte(bad))
		}()
		<-done
		if !rec.failed {
			t.Errorf("%s: checkGitHubSARIF accepts the defect", c.name)
		}
	}
}

// TestE2ESARIFGitHub runs check -format sarif from a module in a
// subdirectory of a repository, as in a monorepo on GitHub: URIs must be
// relative to the repository root, not to the module or the current
// directory, and every field GitHub needs must be there, including the lock
// site as a related location and the suggested fix.
func TestE2ESARIFGitHub(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(repo, "svc")
	writeFile(t, mod, "go.mod", "module example.com/m\n\ngo 1.26\n")
	for _, name := range []string{"fixable/fixable.go", "callback/callback.go"} {
		writeFile(t, mod, name, sources[name])
	}
	r := runLockaudit(t, mod, "-format", "sarif", "-o", filepath.Join(repo, "lockaudit.sarif"))
	if r.code != exitFindings || r.stdout != "" || r.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and no output", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(repo, "lockaudit.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	results := checkGitHubSARIF(t, data)
	got := map[string]bool{}
	for _, res := range results {
		loc := obj(t, obj(t, list(t, res, "locations")[0], "physicalLocation"), "artifactLocation")
		uri := str(t, loc, "uri")
		got[uri] = true
		related := listOpt(t, res, "relatedLocations")
		if len(related) == 0 {
			t.Errorf("%s: no related location for the lock site", uri)
			continue
		}
		lockLine := obj(t, obj(t, related[0], "physicalLocation"), "region")["startLine"]
		wantLock := map[string]float64{"svc/fixable/fixable.go": 9, "svc/callback/callback.go": 12}[uri]
		if lockLine != wantLock {
			t.Errorf("%s: lock site at line %v, want %v", uri, lockLine, wantLock)
		}
		if fixes := listOpt(t, res, "fixes"); (uri == "svc/fixable/fixable.go") != (len(fixes) == 1) {
			t.Errorf("%s: %d fixes (the move-Unlock fix applies to fixable only)", uri, len(fixes))
		}
	}
	if len(results) != 2 || !got["svc/fixable/fixable.go"] || !got["svc/callback/callback.go"] {
		t.Errorf("results in %v, want one each in svc/fixable/fixable.go and svc/callback/callback.go", got)
	}
	var doc struct {
		Runs []struct {
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if root := doc.Runs[0].OriginalURIBaseIDs[srcRoot].URI; !strings.HasPrefix(root, "file://") || !strings.HasSuffix(root, filepath.ToSlash(repo)+"/") {
		t.Errorf("originalUriBaseIds[%s] = %q, want the file URI of %s/", srcRoot, root, repo)
	}
}
