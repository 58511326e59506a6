// Package sariftest checks SARIF logs the way GitHub code scanning reads
// them, for the tests of lockaudit's SARIF writer and of the command.
package sariftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/internal/report"
)

// TB is the part of testing.TB the SARIF checks use, so that a test can
// check that they fail.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// CheckGitHub checks a SARIF log against what GitHub code scanning
// requires of an upload, reading the raw JSON (not lockaudit's own structs,
// which could hide a missing or misnamed field). There is no network here,
// so no schema: the fields are checked one by one. It returns the results,
// for further checks.
func CheckGitHub(t TB, data []byte) []map[string]any {
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
	runs := List(t, doc, "runs")
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	run := runs[0]
	driver := Obj(t, Obj(t, run, "tool"), "driver")
	if driver["name"] != "lockaudit" {
		t.Errorf("tool.driver.name = %v", driver["name"])
	}
	rules := List(t, driver, "rules")
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = Str(t, r, "id")
		for _, k := range []string{"shortDescription", "fullDescription", "help"} {
			text := Str(t, Obj(t, r, k), "text")
			if text == "" || (k != "help" && len(text) > 1024) {
				t.Errorf("rule %s: %s.text has %d bytes (want 1 to 1024 for descriptions)", ids[i], k, len(text))
			}
		}
	}
	var results []map[string]any
	for _, res := range List(t, run, "results") {
		ruleID := Str(t, res, "ruleId")
		where := fmt.Sprintf("result %s %q", ruleID, Obj(t, res, "message")["text"])
		idx, ok := res["ruleIndex"].(float64)
		if !ok || idx < 0 || int(idx) >= len(rules) || ids[int(idx)] != ruleID {
			t.Errorf("%s: ruleIndex %v does not point at rule %s in %v", where, res["ruleIndex"], ruleID, ids)
		}
		if Str(t, Obj(t, res, "message"), "text") == "" {
			t.Errorf("%s: empty message.text", where)
		}
		locs := List(t, res, "locations")
		if len(locs) != 1 {
			t.Errorf("%s: %d locations, want 1", where, len(locs))
		}
		for _, loc := range locs {
			checkLocation(t, where, Obj(t, loc, "physicalLocation"))
		}
		for _, rel := range ListOpt(t, res, "relatedLocations") {
			checkLocation(t, where+" related", Obj(t, rel, "physicalLocation"))
			if id, ok := rel["id"].(float64); !ok || id < 0 {
				t.Errorf("%s: related location id %v", where, rel["id"])
			}
			if Str(t, Obj(t, rel, "message"), "text") == "" {
				t.Errorf("%s: related location without a message", where)
			}
		}
		fps := Obj(t, res, "partialFingerprints")
		if fp, _ := fps[report.FingerprintKey].(string); fp == "" {
			t.Errorf("%s: partialFingerprints = %v", where, fps)
		}
		for _, fix := range ListOpt(t, res, "fixes") {
			if Str(t, Obj(t, fix, "description"), "text") == "" {
				t.Errorf("%s: fix without a description", where)
			}
			changes := List(t, fix, "artifactChanges")
			if len(changes) == 0 {
				t.Errorf("%s: fix without artifactChanges", where)
			}
			for _, ch := range changes {
				checkURI(t, where+" fix", Obj(t, ch, "artifactLocation"))
				for _, rep := range List(t, ch, "replacements") {
					if line, _ := Obj(t, rep, "deletedRegion")["startLine"].(float64); line < 1 {
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
func checkLocation(t TB, where string, loc map[string]any) {
	t.Helper()
	checkURI(t, where, Obj(t, loc, "artifactLocation"))
	if line, _ := Obj(t, loc, "region")["startLine"].(float64); line < 1 {
		t.Errorf("%s: region.startLine = %v, want >= 1", where, line)
	}
}

// checkURI checks that an artifact location is relative to the source root.
func checkURI(t TB, where string, art map[string]any) {
	t.Helper()
	uri := Str(t, art, "uri")
	if uri == "" || strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "file:") || strings.Contains(uri, "..") {
		t.Errorf("%s: artifactLocation.uri %q is not repository-relative", where, uri)
	}
	if art["uriBaseId"] != report.SARIFSrcRoot {
		t.Errorf("%s: uriBaseId = %v, want %s", where, art["uriBaseId"], report.SARIFSrcRoot)
	}
}

// Obj returns the object m[key], failing t if it is not one.
func Obj(t TB, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("%q is %T, want an object", key, m[key])
	}
	return v
}

// List returns the array of objects m[key], failing t if it is not one.
func List(t TB, m map[string]any, key string) []map[string]any {
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

// ListOpt is List for an optional array.
func ListOpt(t TB, m map[string]any, key string) []map[string]any {
	t.Helper()
	if _, ok := m[key]; !ok {
		return nil
	}
	return List(t, m, key)
}

// Str returns the string m[key], failing t if it is not one.
func Str(t TB, m map[string]any, key string) string {
	t.Helper()
	v, ok := m[key].(string)
	if !ok {
		t.Fatalf("%q is %T, want a string", key, m[key])
	}
	return v
}

// Doc is the part of a SARIF log the tests check, read through struct types
// of its own rather than the writer's.
type Doc struct {
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
				PhysicalLocation PhysicalLocation `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations []struct {
				ID               int              `json:"id"`
				PhysicalLocation PhysicalLocation `json:"physicalLocation"`
				Message          struct{ Text string }
			} `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]string `json:"properties"`
			Fixes               []Fix             `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

// A PhysicalLocation is a SARIF physicalLocation.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region"`
}

// An ArtifactLocation is a SARIF artifactLocation.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

// A Region is a SARIF region.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// A Fix is a SARIF fix.
type Fix struct {
	Description     struct{ Text string } `json:"description"`
	ArtifactChanges []struct {
		ArtifactLocation ArtifactLocation `json:"artifactLocation"`
		Replacements     []struct {
			DeletedRegion   Region                 `json:"deletedRegion"`
			InsertedContent *struct{ Text string } `json:"insertedContent"`
		} `json:"replacements"`
	} `json:"artifactChanges"`
}
