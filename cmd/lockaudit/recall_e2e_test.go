package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestE2ERecall runs the built binary over testdata/recall, kernels of
// blocking bugs of the kinds found in Kubernetes, etcd, gRPC, Moby,
// CockroachDB, Hugo, Istio, Knative and Syncthing, each beside its fixed
// twin, and checks expect.tsv: every bug is reported by its finding, at
// its level or a surer one, and a fixed twin reports nothing beyond what
// the table allows. A kernel that stops being caught, or a fixed twin that
// gains a finding, fails the test.
// Waits on the analyzer.
func TestE2ERecall(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", "recall"))
	if err != nil {
		t.Fatal(err)
	}
	want := readExpectations(t, filepath.Join(dir, "expect.tsv"))
	r := runLockaudit(t, dir, "check", "-severity", "note", "-format", "json", "./...")
	if r.code != exitFindings {
		t.Fatalf("exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	var rep struct {
		Findings []struct {
			File, Rule, Category, Severity, Function, Message string
			Line                                              int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	bugs := map[string][]string{}  // kernel -> "rule/category:level" of the buggy code's findings
	fixed := map[string][]string{} // the same for the fixed twins'
	for _, f := range rep.Findings {
		// Paths are relative to the repository's root or the module's.
		rel := f.File
		if _, after, ok := strings.Cut(rel, "testdata/recall/"); ok {
			rel = after
		}
		kernel, _, _ := strings.Cut(rel, "/")
		key := f.Rule + "/" + f.Category + ":" + f.Severity
		if strings.Contains(f.Function, "Fixed") {
			fixed[kernel] = append(fixed[kernel], key)
			if !slices.Contains(want[kernel].fixed, key) {
				t.Errorf("%s:%d: fixed twin reported: %s (%s)", f.File, f.Line, f.Message, key)
			}
			continue
		}
		bugs[kernel] = append(bugs[kernel], key)
	}
	for kernel, e := range want {
		if !caught(bugs[kernel], e.bug) {
			t.Errorf("%s: bug not reported as %s; its findings: %v", kernel, e.bug, bugs[kernel])
		}
	}
}

// expectation is one row of expect.tsv.
type expectation struct {
	bug   string   // rule/category:level
	fixed []string // what the fixed twin may report
}

func readExpectations(t *testing.T, name string) map[string]expectation {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]expectation{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("%s: bad line %q", name, line)
		}
		e := expectation{bug: cols[1]}
		if cols[2] != "-" {
			e.fixed = strings.Split(cols[2], ",")
		}
		out[cols[0]] = e
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no kernels", name)
	}
	return out
}

// caught reports whether findings include want ("rule/category:level"),
// or the same finding at a surer level (a warning where a note is
// expected).
func caught(findings []string, want string) bool {
	cat, level, _ := strings.Cut(want, ":")
	for _, f := range findings {
		c, l, _ := strings.Cut(f, ":")
		if c == cat && (l == level || l == "warning") {
			return true
		}
	}
	return false
}
