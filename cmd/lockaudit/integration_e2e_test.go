package main

// End-to-end tests of the CI integrations (docs/ci.md): the baseline gate and
// go vet -vettool with analyzer flags.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2EBaselineGate is the pre-merge gate of docs/ci.md: a baseline
// recorded on the main branch keeps accepting its findings when edits move
// them (and the lock lines named in their messages), and a new finding fails
// the gate alone.
func TestE2EBaselineGate(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "callback")
	if r := runLockaudit(t, dir, "-write-baseline", "lockaudit-baseline.json"); r.code != exitClean {
		t.Fatalf("-write-baseline: exit %d, stderr %q", r.code, r.stderr)
	}
	gate := func() result {
		t.Helper()
		return runLockaudit(t, dir, "-baseline", "lockaudit-baseline.json", "./...")
	}
	if r := gate(); r.code != exitClean || r.stdout != "" || r.stderr != "" {
		t.Errorf("unchanged tree: exit %d, stdout %q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
	}

	// Lines inserted above every finding and its lock: the findings move
	// and their messages now say "locked at locked.go:19"; the gate passes.
	const above = "// Version is inserted above the findings.\nconst Version = 2\n\n// Zero is unrelated.\nfunc Zero() int { return 0 }\n\n"
	for _, name := range []string{"locked/locked.go", "callback/callback.go"} {
		src := sources[name]
		i := strings.Index(src, "\n// ") + 1 // before the first doc comment after the imports
		writeFile(t, dir, name, src[:i]+above+src[i:])
	}
	if r := runLockaudit(t, dir, "./locked"); !strings.Contains(r.stdout, "locked/locked.go:19:") || !strings.Contains(r.stdout, "locked at locked.go:18") {
		t.Fatalf("the edit did not move the finding: %q", r.stdout)
	}
	if r := gate(); r.code != exitClean || r.stdout != "" || r.stderr != "" {
		t.Errorf("after inserting lines: exit %d, stdout %q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
	}

	// A new finding, in a new function: the gate fails and reports it alone,
	// in every format.
	writeFile(t, dir, "locked/more.go", "package locked\n\nimport \"time\"\n\n// Nap sleeps under mu.\nfunc Nap() {\n\tmu.Lock()\n\tdefer mu.Unlock()\n\ttime.Sleep(time.Second)\n}\n")
	r := gate()
	if r.code != exitFindings {
		t.Errorf("new finding: exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	checkLines(t, "new finding", r.stdout, regexp.MustCompile(`^locked/more\.go:9:\d+: mu held across .*time\.Sleep.* \(heldcall/sleep\)$`))

	r = runLockaudit(t, dir, "-baseline", "lockaudit-baseline.json", "-format", "json")
	var out jsonOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if r.code != exitFindings || len(out.Findings) != 1 || out.Findings[0].File != "locked/more.go" {
		t.Errorf("-format json: exit %d, findings %+v; want 1 and the new one", r.code, out.Findings)
	}

	r = runLockaudit(t, dir, "-baseline", "lockaudit-baseline.json", "-format", "sarif")
	if results := checkGitHubSARIF(t, []byte(r.stdout)); r.code != exitFindings || len(results) != 1 {
		t.Errorf("-format sarif: exit %d, %d results; want 1 and the new one", r.code, len(results))
	}

	// The same finding twice in one function is told apart by occurrence:
	// a second copy of a baselined call is new.
	src, err := os.ReadFile(filepath.Join(dir, "callback/callback.go"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "callback/callback.go", strings.Replace(string(src), "\tjob()\n", "\tjob()\n\tjob()\n", 1))
	r = runLockaudit(t, dir, "-baseline", "lockaudit-baseline.json", "./callback")
	if r.code != exitFindings || len(lines(r.stdout)) != 1 {
		t.Errorf("second call of job: exit %d, stdout %q; want 1 and one finding", r.code, r.stdout)
	}
}

// TestE2EGoVetVettoolFlags runs lockaudit under go vet with the analyzer
// flags documented in the README and docs/ci.md.
func TestE2EGoVetVettoolFlags(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "db", "usedb", "locked")
	vet := func(args ...string) result {
		t.Helper()
		return run(t, dir, testEnv(), "go", append([]string{"vet", "-vettool=" + binary}, args...)...)
	}
	if r := vet("./usedb"); r.code != 0 || r.stderr != "" {
		t.Errorf("without -heldcall.block: exit %d, stderr %q; want 0", r.code, r.stderr)
	}
	r := vet("-heldcall.block=example.com/m/db.Query=db", "./usedb")
	if r.code != 1 || !regexp.MustCompile(`(?m)^usedb/usedb\.go:19:\d+: mu held across .*db\.Query`).MatchString(r.stderr) {
		t.Errorf("-heldcall.block: exit %d, stderr\n%s\nwant 1 and the db finding", r.code, r.stderr)
	}
	// -json: findings are data, the exit code is 0 (go vet's convention).
	r = vet("-json", "./locked")
	out := r.stdout + r.stderr
	if r.code != 0 || !strings.Contains(out, `"heldcall": [`) || !strings.Contains(out, `"category": "sleep"`) {
		t.Errorf("-json: exit %d, output\n%s", r.code, out)
	}
}
