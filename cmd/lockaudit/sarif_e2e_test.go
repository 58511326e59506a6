package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
