package lockaudit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGolangciLintPlugin builds golangci-lint v2.15.0 with the plugin from the
// module proxy, as the README describes (golangci-lint custom would clone from
// GitHub), and runs it on a fixture module.
func TestGolangciLintPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint from the module proxy (about 3 minutes cold)")
	}
	checkout, err := os.Getwd() // the module root: this package's directory
	if err != nil {
		t.Fatal(err)
	}
	mainSrc, err := os.ReadFile(filepath.Join(checkout, ".ci", "golangci-lint", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOLANGCI_LINT_CACHE="+t.TempDir())

	// The custom binary: the tiny main, and a go.mod with the require line
	// and the replace to this checkout.
	build := t.TempDir()
	writeTestFile(t, build, "main.go", string(mainSrc))
	writeTestFile(t, build, "go.mod", "module lockaudit-golangci-lint\n\ngo 1.26.0\n\n"+
		"require (\n\tgithub.com/golangci/golangci-lint/v2 v2.15.0\n\tgithub.com/lockaudit/lockaudit v0.0.0\n)\n\n"+
		"replace github.com/lockaudit/lockaudit => "+checkout+"\n")
	mustRun(t, build, env, "go", "mod", "tidy")
	start := time.Now()
	bin := filepath.Join(build, "golangci-lint")
	mustRun(t, build, env, "go", "build", "-o", bin, ".")
	t.Logf("go build of the custom golangci-lint: %v", time.Since(start).Round(time.Second))

	fix := t.TempDir()
	writeTestFile(t, fix, "go.mod", "module example.com/fix\n\ngo 1.26\n")
	writeTestFile(t, fix, ".golangci.yml", golangciConfig(""))
	writeTestFile(t, fix, "held.go", heldSrc)
	writeTestFile(t, fix, "suppressed.go", suppressedSrc)
	writeTestFile(t, fix, "fixed.go", fixedSrc)
	writeTestFile(t, fix, "plausible.go", plausibleSrc)
	saveLine := lineOf(t, plausibleSrc, "\treturn c.backend.Save(")
	jobLine := lineOf(t, heldSrc, "\tjob()")
	sleepLine := lineOf(t, heldSrc, "\ttime.Sleep(")

	lint := func(args ...string) (issues []golangciIssue, code int, stderr string) {
		t.Helper()
		args = append([]string{"run", "--output.json.path=stdout", "--output.text.path=", "--show-stats=false"}, args...)
		out, errOut, code := runCmd(t, fix, env, bin, append(args, "./...")...)
		if code == 0 || code == 1 {
			var rep struct{ Issues []golangciIssue }
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("golangci-lint %q: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, errOut)
			}
			issues = rep.Issues
		}
		return issues, code, errOut
	}

	// The findings of held.go, at their lines; suppressed.go and fixed.go
	// are silent.
	issues, code, stderr := lint()
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	checkIssues(t, "default settings", issues,
		golangciIssue{Text: "heldcall: mu held across call of func value job", Pos: issuePos{"held.go", jobLine}},
		golangciIssue{Text: "heldcall: mu held across call of time.Sleep", Pos: issuePos{"held.go", sleepLine}})

	// Settings reach the plugin: a disabled category is not reported.
	writeTestFile(t, fix, "sleepoff.yml", golangciConfig("disable: [heldcall/sleep]"))
	issues, code, stderr = lint("-c", "sleepoff.yml")
	if code != 1 {
		t.Errorf("-c sleepoff.yml: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	checkIssues(t, "disable heldcall/sleep", issues,
		golangciIssue{Text: "heldcall: mu held across call of func value job", Pos: issuePos{"held.go", jobLine}})

	// severity: note adds the plausible finding of plausible.go.
	writeTestFile(t, fix, "notes.yml", golangciConfig("severity: note"))
	issues, code, stderr = lint("-c", "notes.yml")
	if code != 1 {
		t.Errorf("-c notes.yml: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	checkIssues(t, "severity: note", issues,
		golangciIssue{Text: "heldcall: mu held across call of func value job", Pos: issuePos{"held.go", jobLine}},
		golangciIssue{Text: "heldcall: mu held across call of time.Sleep", Pos: issuePos{"held.go", sleepLine}},
		golangciIssue{Text: "heldcall: c.mu held across call of interface method Backend.Save", Pos: issuePos{"plausible.go", saveLine}})

	// Unknown settings are an error, not silently ignored.
	writeTestFile(t, fix, "typo.yml", golangciConfig("disabled: [heldcall/sleep]"))
	if _, code, stderr = lint("-c", "typo.yml"); code == 0 || code == 1 || !strings.Contains(stderr, `unknown field "disabled"`) {
		t.Errorf("-c typo.yml: exit %d, stderr:\n%s\nwant a failure naming the unknown field", code, stderr)
	}
}

// golangciConfig returns a .golangci.yml that runs only lockaudit, with the
// given plugin settings (YAML at the settings level, or "").
func golangciConfig(settings string) string {
	s := `version: "2"
linters:
  default: none
  enable:
    - lockaudit
  settings:
    custom:
      lockaudit:
        type: module
        description: lock-contention bugs
`
	if settings != "" {
		s += "        settings:\n          " + settings + "\n"
	}
	return s
}

const heldSrc = `package fix

import (
	"sync"
	"time"
)

var mu sync.Mutex

// Held calls job with mu held.
func Held(job func()) {
	mu.Lock()
	job()
	mu.Unlock()
}

// Nap sleeps with mu held until it returns.
func Nap() {
	mu.Lock()
	defer mu.Unlock()
	time.Sleep(time.Millisecond)
}
`

// plausibleSrc holds a note: the backend is implemented by users.
const plausibleSrc = `package fix

import "sync"

// Backend stores entries.
type Backend interface{ Save(key string) error }

// Cache writes through to its backend.
type Cache struct {
	mu      sync.Mutex
	backend Backend
}

// NewCache returns a cache over b.
func NewCache(b Backend) *Cache { return &Cache{backend: b} }

// Put saves key under c.mu.
func (c *Cache) Put(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.backend.Save(key)
}
`

const suppressedSrc = `package fix

import "time"

// HeldNolint calls job with mu held, suppressed for golangci-lint.
func HeldNolint(job func()) {
	mu.Lock()
	job() //nolint:lockaudit // job is documented to return at once
	mu.Unlock()
}

// NapIgnored sleeps with mu held, suppressed for every lockaudit driver.
func NapIgnored() {
	mu.Lock()
	defer mu.Unlock()
	//lockaudit:ignore heldcall the sleep is a test hook
	time.Sleep(time.Millisecond)
}
`

const fixedSrc = `package fix

import "time"

// Released calls job after releasing mu.
func Released(job func()) {
	mu.Lock()
	mu.Unlock()
	job()
}

// NapOutside sleeps before taking mu.
func NapOutside() {
	time.Sleep(time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
}
`

// golangciIssue is the part of an issue in golangci-lint's JSON output that
// the test checks.
type golangciIssue struct {
	FromLinter string
	Text       string
	Pos        issuePos
}

type issuePos struct {
	Filename string
	Line     int
}

// checkIssues checks that issues are exactly want, in order: same file and
// line, text starting with want's, from the lockaudit linter.
func checkIssues(t *testing.T, what string, issues []golangciIssue, want ...golangciIssue) {
	t.Helper()
	ok := len(issues) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = issues[i].FromLinter == "lockaudit" && issues[i].Pos == want[i].Pos && strings.HasPrefix(issues[i].Text, want[i].Text)
	}
	if !ok {
		t.Errorf("%s: issues\n%+v\nwant\n%+v", what, issues, want)
	}
}

// lineOf returns the 1-based line of src that starts with prefix.
func lineOf(t *testing.T, src, prefix string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, prefix) {
			return i + 1
		}
	}
	t.Fatalf("no line starting with %q", prefix)
	return 0
}

func writeTestFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

// runCmd runs name with args in dir and returns its output and exit code.
func runCmd(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", name, err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// mustRun runs name with args in dir and fails the test if it fails.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	if out, errOut, code := runCmd(t, dir, env, name, args...); code != 0 {
		t.Fatalf("%s %s: exit %d\n%s%s", name, strings.Join(args, " "), code, out, errOut)
	}
}
