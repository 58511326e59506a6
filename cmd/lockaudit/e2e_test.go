package main

// End-to-end tests: they build the lockaudit binary once and run it, as a
// user or CI would, on small temporary modules (standard library only).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// binary is the lockaudit executable built by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lockaudit-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "lockaudit")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building lockaudit:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sources of the packages of the test module, by file name.
var sources = map[string]string{
	"locked/locked.go": `package locked

import (
	"sync"
	"time"
)

var mu sync.Mutex

// Sleepy sleeps while holding mu.
func Sleepy() {
	mu.Lock()
	time.Sleep(time.Millisecond)
	mu.Unlock()
}
`,
	"locked/locked_test.go": `package locked

import (
	"testing"
	"time"
)

func TestSleepy(t *testing.T) {
	Sleepy()
	mu.Lock()
	time.Sleep(time.Millisecond)
	Sleepy()
	mu.Unlock()
}
`,
	"store/store.go": `package store

import "sync"

// Backend persists entries; users implement it.
type Backend interface {
	Save(key string) error
}

// Cache writes through to its backend.
type Cache struct {
	mu      sync.Mutex
	backend Backend
}

// New returns a cache over b.
func New(b Backend) *Cache { return &Cache{backend: b} }

// Put saves key with c.mu held: plausible, the backend is the user's.
func (c *Cache) Put(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.backend.Save(key)
}
`,
	"callback/callback.go": `package callback

import "sync"

// Pool runs jobs.
type Pool struct {
	mu sync.Mutex
}

// Run calls job with p.mu held.
func (p *Pool) Run(job func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	job()
}
`,
	"fixable/fixable.go": `package fixable

import "sync"

var mu sync.Mutex

// Run calls job with mu held.
func Run(job func()) {
	mu.Lock()
	job()
	mu.Unlock()
}
`,
	"clean/clean.go": `package clean

import "sync"

var mu sync.Mutex

// Get reads under the lock and calls nothing.
func Get(m map[string]int, k string) int {
	mu.Lock()
	defer mu.Unlock()
	return m[k]
}
`,
	"broken/broken.go": `package broken

func Broken() int { return "not an int" }
`,
	"usesbroken/usesbroken.go": `package usesbroken

import (
	"sync"
	"time"

	"example.com/m/broken"
)

var mu sync.Mutex

// Use sleeps under mu.
func Use() int {
	mu.Lock()
	time.Sleep(time.Millisecond)
	mu.Unlock()
	return broken.Broken()
}
`,
	"db/db.go": `package db

// Query stands for a database round trip.
func Query() int { return 1 }
`,
	"usedb/usedb.go": `package usedb

import (
	"sync"

	"example.com/m/db"
)

var (
	mu      sync.Mutex
	queries int
)

// Count counts and runs a query under mu.
func Count() int {
	mu.Lock()
	defer mu.Unlock()
	queries++
	return db.Query()
}
`,
}

// newModule writes a module example.com/m with the packages named (the
// directories of sources) into a temporary directory and returns it.
func newModule(t *testing.T, pkgs ...string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.26\n")
	for _, pkg := range pkgs {
		n := 0
		for name, src := range sources {
			if filepath.Dir(name) == pkg {
				writeFile(t, dir, name, src)
				n++
			}
		}
		if n == 0 {
			t.Fatalf("no sources for package %s", pkg)
		}
	}
	return dir
}

// result is the outcome of one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// testEnv is the environment of the commands the tests run: the user's, with
// settings that could change the go command's behaviour pinned.
func testEnv(extra ...string) []string {
	return append(os.Environ(), append([]string{"GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local"}, extra...)...)
}

// run runs name with args in dir.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", name, err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// runLockaudit runs the binary with args in dir.
func runLockaudit(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, testEnv(), binary, args...)
}

// lines splits output into lines, without the final newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Expected text lines of the findings in the test module.
var (
	lockedLine = regexp.MustCompile(`^locked/locked\.go:13:\d+: mu held across .*time\.Sleep.*locked\.go:12.* \(heldcall/sleep\)$`)
	// heldcall findings in tests are reported only with -heldcall.tests;
	// lockorder's always are (a deadlocking test hangs CI).
	lockedTestLine      = regexp.MustCompile(`^locked/locked_test\.go:12:\d+: mu locked again through call of Sleepy while held .* \(lockorder/double-lock\)$`)
	lockedTestSleepLine = regexp.MustCompile(`^locked/locked_test\.go:11:\d+: mu held across .*time\.Sleep.* \(heldcall/sleep\)$`)
	storeNoteLine       = regexp.MustCompile(`^store/store\.go:23:\d+: c\.mu held across call of interface method Backend\.Save \(locked at store\.go:21, released by defer\) \(plausible: Backend can be implemented outside this module\) \(heldcall/interface\)$`)
	callbackLine        = regexp.MustCompile(`^callback/callback\.go:14:\d+: p\.mu held across call of func value job \(locked at callback\.go:12, released by defer\) \(heldcall/callback\)$`)
)

// checkLines checks that out has exactly one line per pattern, in order.
func checkLines(t *testing.T, what, out string, want ...*regexp.Regexp) {
	t.Helper()
	got := lines(out)
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = want[i].MatchString(got[i])
	}
	if !ok {
		t.Errorf("%s:\n%s\nwant lines matching:\n%s", what, out, patternList(want))
	}
}

func patternList(res []*regexp.Regexp) string {
	var s []string
	for _, re := range res {
		s = append(s, re.String())
	}
	return strings.Join(s, "\n")
}

// Waits on the analyzer: needs heldcall sleep findings.
func TestE2EFindingsText(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "clean")
	r := runLockaudit(t, dir)
	if r.code != exitFindings || r.stderr != "" {
		t.Errorf("exit %d, stderr %q; want 1 and nothing", r.code, r.stderr)
	}
	// Sorted by file; the finding in locked.go is reported once although
	// the package is vetted with its tests.
	checkLines(t, "stdout", r.stdout, lockedLine, lockedTestLine)

	r2 := runLockaudit(t, dir, "check", "./locked")
	if r2.code != exitFindings || r2.stdout != r.stdout {
		t.Errorf("check ./locked: exit %d, stdout\n%s\nwant the same as the default ./...", r2.code, r2.stdout)
	}
}

func TestE2EClean(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "clean")
	for _, args := range [][]string{nil, {"check"}, {"check", "./clean"}, {"./..."}} {
		r := runLockaudit(t, dir, args...)
		if r.code != exitClean || r.stdout != "" || r.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 0 and no output", args, r.code, r.stdout, r.stderr)
		}
	}
}

// brokenLine is the one error line for the package that does not compile.
var brokenLine = regexp.MustCompile(`^lockaudit: example\.com/m/broken: broken/broken\.go:3:\d+: .*not an int.*$`)

// The error half passes without findings; the findings half waits on the
// analyzer.
func TestE2EBrokenPackage(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "broken")
	r := runLockaudit(t, dir)
	if r.code != exitError {
		t.Errorf("exit %d, want 2", r.code)
	}
	checkLines(t, "stderr", r.stderr, brokenLine)
	checkLines(t, "stdout (the other package's findings)", r.stdout, lockedLine, lockedTestLine)
}

// Waits on the analyzer for the findings of locked.
func TestE2EBrokenDependency(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "broken", "usesbroken")
	r := runLockaudit(t, dir, "./locked", "./usesbroken")
	if r.code != exitError {
		t.Errorf("exit %d, want 2", r.code)
	}
	// go vet skips usesbroken silently; lockaudit says so.
	checkLines(t, "stderr", r.stderr, brokenLine,
		regexp.MustCompile(`^lockaudit: example\.com/m/usesbroken: not analysed .*example\.com/m/broken.*$`))
	checkLines(t, "stdout", r.stdout, lockedLine, lockedTestLine)
}

// Waits on the analyzer for the findings.
func TestE2EBadPattern(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked")
	r := runLockaudit(t, dir, "./locked", "./nonexistent", "./nothing/...", "example.com/elsewhere")
	if r.code != exitError {
		t.Errorf("exit %d, want 2", r.code)
	}
	checkLines(t, "stderr", r.stderr,
		regexp.MustCompile(`^lockaudit: \./nonexistent: .*$`),
		regexp.MustCompile(`^lockaudit: \./nothing/\.\.\.: .*$`),
		regexp.MustCompile(`^lockaudit: example\.com/elsewhere: .*$`))
	checkLines(t, "stdout", r.stdout, lockedLine, lockedTestLine)
}

func TestE2EBadFlag(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "clean")
	for _, args := range [][]string{{"-nosuchflag"}, {"check", "-format", "xml"}, {"-enable", "heldcall/nosuch"}, {"profile", "-format", "xml"}, {"-o"}} {
		r := runLockaudit(t, dir, args...)
		if r.code != exitError || r.stdout != "" || len(lines(r.stderr)) != 1 || !strings.HasPrefix(r.stderr, "lockaudit: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line on stderr", args, r.code, r.stdout, r.stderr)
		}
	}
	r := runLockaudit(t, dir, "-h")
	if r.code != exitClean || !strings.Contains(r.stdout, "-format") || r.stderr != "" {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestE2EVersion(t *testing.T) {
	t.Parallel()
	r := runLockaudit(t, t.TempDir(), "version")
	if r.code != exitClean || !regexp.MustCompile(`^lockaudit \S+ go1\.\d+`).MatchString(r.stdout) || len(lines(r.stdout)) != 1 {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// jsonOutput is the JSON report as the tests read it.
type jsonOutput struct {
	Findings []struct {
		Rule, Category, Severity, Message, File string
		Line, Column                            int
		EndLine                                 int `json:"end_line"`
		EndColumn                               int `json:"end_column"`
		Package, Function, Lock                 string
		Related                                 []struct {
			File    string
			Line    int
			Message string
		}
		Fixes []jsonFix
	}
	Errors []struct{ Package, Message string }
}

// Waits on the analyzer.
func TestE2EJSON(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "callback", "broken")
	r := runLockaudit(t, dir, "-format", "json")
	if r.code != exitError {
		t.Errorf("exit %d, want 2 (broken package)", r.code)
	}
	var out jsonOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(out.Errors) != 1 || out.Errors[0].Package != "example.com/m/broken" || strings.Contains(out.Errors[0].Message, "\n") {
		t.Errorf("errors = %+v", out.Errors)
	}
	if len(out.Findings) != 1 {
		t.Fatalf("findings = %+v, want 1", out.Findings)
	}
	f := out.Findings[0]
	if f.Rule != "heldcall" || f.Category != "callback" || f.Severity != "warning" || f.File != "callback/callback.go" ||
		f.Line != 14 || f.Column < 1 || f.EndLine < f.Line || f.Package != "example.com/m/callback" ||
		f.Function != "(*Pool).Run" || f.Lock != "p.mu" || !strings.Contains(f.Message, "released by defer") {
		t.Errorf("finding = %+v", f)
	}
	if len(f.Related) == 0 || f.Related[0].File != "callback/callback.go" || f.Related[0].Line != 12 || f.Related[0].Message != "p.mu locked here" {
		t.Errorf("related = %+v", f.Related)
	}

	// Nothing found: empty lists, not null.
	r = runLockaudit(t, newModule(t, "clean"), "-format=json")
	if r.code != exitClean || strings.Join(strings.Fields(r.stdout), "") != `{"findings":[],"errors":[]}` {
		t.Errorf("clean: exit %d, stdout %q", r.code, r.stdout)
	}
}

// Waits on the analyzer.
func TestE2ESARIF(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "callback")
	r := runLockaudit(t, dir, "-format", "sarif")
	if r.code != exitFindings {
		t.Errorf("exit %d, want 1; stderr %s", r.code, r.stderr)
	}
	var doc sarifDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if doc.Version != "2.1.0" || doc.Schema == "" || len(doc.Runs) != 1 || doc.Runs[0].Tool.Driver.Name != "lockaudit" {
		t.Fatalf("version %q, schema %q, runs %d", doc.Version, doc.Schema, len(doc.Runs))
	}
	run := doc.Runs[0]
	ids := map[string]bool{}
	for _, rule := range run.Tool.Driver.Rules {
		ids[rule.ID] = true
		if rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" || rule.Help.Text == "" {
			t.Errorf("rule %s lacks descriptions or help", rule.ID)
		}
	}
	if !ids["heldcall"] {
		t.Errorf("rules = %v", ids)
	}
	uris := map[string]bool{}
	for _, res := range run.Results {
		loc := res.Locations[0].PhysicalLocation
		uris[loc.ArtifactLocation.URI] = true
		if !ids[res.RuleID] || res.Message.Text == "" || loc.Region == nil || loc.Region.StartLine <= 0 ||
			strings.HasPrefix(loc.ArtifactLocation.URI, "/") || strings.HasPrefix(loc.ArtifactLocation.URI, "file:") ||
			res.PartialFingerprints[fingerprintKey] == "" || res.Properties["category"] == "" {
			t.Errorf("result = %+v", res)
		}
	}
	for _, want := range []string{"locked/locked.go", "locked/locked_test.go", "callback/callback.go"} {
		if !uris[want] {
			t.Errorf("no result in %s; results in %v", want, uris)
		}
	}
}

// Waits on the analyzer.
func TestE2EOutputFile(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked")
	r := runLockaudit(t, dir, "-format", "json", "-o", "report.json", "./...")
	if r.code != exitFindings || r.stdout != "" || r.stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and no output", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out jsonOutput
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Findings) != 2 {
		t.Errorf("report has %d findings, want 2", len(out.Findings))
	}
	r = runLockaudit(t, dir, "-o", "report.txt", "./locked")
	if data, _ := os.ReadFile(filepath.Join(dir, "report.txt")); r.code != exitFindings || r.stdout != "" {
		t.Errorf("text -o: exit %d, stdout %q", r.code, r.stdout)
	} else {
		checkLines(t, "report.txt", string(data), lockedLine, lockedTestLine)
	}
}

// Waits on the analyzer.
func TestE2ETestsFlag(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked")
	r := runLockaudit(t, dir, "-tests=false")
	if r.code != exitFindings {
		t.Errorf("exit %d, want 1", r.code)
	}
	checkLines(t, "-tests=false", r.stdout, lockedLine)
}

// Plausible findings (notes) are reported only with -severity note; the
// exit code and the baseline count only what is reported, and JSON and
// SARIF carry the level.
func TestE2ESeverity(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "store")
	if r := runLockaudit(t, dir); r.code != exitClean || r.stdout != "" {
		t.Errorf("default (warning): exit %d, stdout %q; want 0 and nothing", r.code, r.stdout)
	}
	r := runLockaudit(t, dir, "-severity", "note")
	if r.code != exitFindings {
		t.Errorf("-severity note: exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	checkLines(t, "-severity note", r.stdout, storeNoteLine)

	r = runLockaudit(t, dir, "-severity", "note", "-format", "json")
	var out jsonOutput
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Findings) != 1 || out.Findings[0].Severity != "note" {
		t.Errorf("-format json: findings %+v, want one of severity note", out.Findings)
	}

	r = runLockaudit(t, dir, "-severity", "note", "-format", "sarif")
	if !strings.Contains(r.stdout, `"level": "note"`) {
		t.Errorf("-format sarif: no result of level note:\n%s", r.stdout)
	}

	if r := runLockaudit(t, dir, "-severity", "note", "-write-baseline", "base.json"); r.code != exitClean {
		t.Errorf("-write-baseline: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runLockaudit(t, dir, "-severity", "note", "-baseline", "base.json"); r.code != exitClean || r.stdout != "" {
		t.Errorf("-baseline with the note recorded: exit %d, stdout %q; want 0", r.code, r.stdout)
	}

	if r := runLockaudit(t, dir, "-severity", "error"); r.code != exitError || len(lines(r.stderr)) != 1 {
		t.Errorf("-severity error: exit %d, stderr %q; want 2 and one line", r.code, r.stderr)
	}
}

// Waits on the analyzer.
func TestE2EEnableDisable(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "callback")
	for _, c := range []struct {
		args []string
		code int
		want []*regexp.Regexp
	}{
		{nil, exitFindings, []*regexp.Regexp{callbackLine, lockedLine, lockedTestLine}},
		{[]string{"-disable", "heldcall/sleep"}, exitFindings, []*regexp.Regexp{callbackLine, lockedTestLine}},
		{[]string{"-enable", "heldcall/sleep"}, exitFindings, []*regexp.Regexp{lockedLine}},
		{[]string{"-enable", "heldcall/sleep", "-heldcall.tests"}, exitFindings, []*regexp.Regexp{lockedLine, lockedTestSleepLine}},
		{[]string{"-enable", "heldcall", "-disable", "heldcall/callback"}, exitFindings, []*regexp.Regexp{lockedLine}},
		{[]string{"-disable", "heldcall,lockorder"}, exitClean, nil},
		{[]string{"-enable", "shardlock/global-map"}, exitClean, nil},
	} {
		r := runLockaudit(t, dir, c.args...)
		if r.code != c.code || r.stderr != "" {
			t.Errorf("%q: exit %d, stderr %q; want %d", c.args, r.code, r.stderr, c.code)
		}
		checkLines(t, fmt.Sprintf("%q", c.args), r.stdout, c.want...)
	}
}

// Waits on the analyzer (heldcall's -block flag and db category).
func TestE2EBlock(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "db", "usedb")
	if r := runLockaudit(t, dir); r.code != exitClean || r.stdout != "" {
		t.Errorf("without -block: exit %d, stdout %q; want 0", r.code, r.stdout)
	}
	r := runLockaudit(t, dir, "-block", "example.com/m/db.Query=db")
	if r.code != exitFindings {
		t.Errorf("with -block: exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	checkLines(t, "with -block", r.stdout,
		regexp.MustCompile(`^usedb/usedb\.go:19:\d+: mu held across .*db\.Query.* \(heldcall/db\)$`))

	r = runLockaudit(t, dir, "-block", "example.com/m/db.Query=nosuch")
	if r.code != exitError || len(lines(r.stderr)) != 1 {
		t.Errorf("bad -block category: exit %d, stderr %q; want 2 and one line", r.code, r.stderr)
	}
}

// Waits on the analyzer (its move-Unlock fix).
func TestE2EFixAndDiff(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "fixable")
	name := filepath.Join(dir, "fixable", "fixable.go")
	orig := sources["fixable/fixable.go"]
	want := strings.Replace(orig, "\tjob()\n\tmu.Unlock()\n", "\tmu.Unlock()\n\tjob()\n", 1)

	r := runLockaudit(t, dir, "-diff")
	if r.code != exitFindings {
		t.Errorf("-diff: exit %d, stderr %q; want 1", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "--- a/fixable/fixable.go\n+++ b/fixable/fixable.go\n") {
		t.Fatalf("-diff output:\n%s", r.stdout)
	}
	if got := applyUnified(t, orig, r.stdout); got != want {
		t.Errorf("the diff gives\n%s\nwant\n%s", got, want)
	}
	if data, _ := os.ReadFile(name); string(data) != orig {
		t.Errorf("-diff changed the file")
	}

	r = runLockaudit(t, dir, "-fix")
	if r.code != exitClean || r.stdout != "" || !strings.Contains(r.stderr, "applied 1 fix to 1 file") {
		t.Errorf("-fix: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if data, _ := os.ReadFile(name); string(data) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", data, want)
	}
	if r := runLockaudit(t, dir); r.code != exitClean {
		t.Errorf("after -fix: exit %d, stdout %q", r.code, r.stdout)
	}
}

// Waits on the analyzer.
func TestE2EBaseline(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "callback")
	r := runLockaudit(t, dir, "-write-baseline", "baseline.json")
	if r.code != exitClean || len(lines(r.stdout)) != 3 || !strings.Contains(r.stderr, "recorded 3 findings") {
		t.Errorf("-write-baseline: exit %d, stdout %q, stderr %q; want 0, the 3 findings, a note", r.code, r.stdout, r.stderr)
	}
	if r := runLockaudit(t, dir, "-baseline", "baseline.json"); r.code != exitClean || r.stdout != "" {
		t.Errorf("-baseline: exit %d, stdout %q; want 0 and nothing", r.code, r.stdout)
	}

	// Move the findings down and add one: only the new one is reported.
	src := sources["locked/locked.go"]
	src = strings.Replace(src, "var mu sync.Mutex\n", "var mu sync.Mutex\n\n// Nap also sleeps under mu.\nfunc Nap() {\n\tmu.Lock()\n\ttime.Sleep(time.Second)\n\tmu.Unlock()\n}\n", 1)
	writeFile(t, dir, "locked/locked.go", src)
	r = runLockaudit(t, dir, "-baseline", "baseline.json")
	if r.code != exitFindings {
		t.Errorf("after the edit: exit %d, want 1", r.code)
	}
	checkLines(t, "after the edit", r.stdout, regexp.MustCompile(`^locked/locked\.go:13:\d+: mu held across .*time\.Sleep.* \(heldcall/sleep\)$`))
}

// Waits on the analyzer for the finding.
func TestE2EGoVetVettool(t *testing.T) {
	t.Parallel()
	dir := newModule(t, "locked", "clean")
	r := run(t, dir, testEnv(), "go", "vet", "-vettool="+binary, "./clean")
	if r.code != 0 || r.stderr != "" {
		t.Errorf("go vet ./clean: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, dir, testEnv(), "go", "vet", "-vettool="+binary, "./locked")
	if r.code != 1 || !regexp.MustCompile(`(?m)^locked/locked\.go:13:\d+: mu held across .*time\.Sleep`).MatchString(r.stderr) ||
		!strings.Contains(r.stderr, "mu locked here") {
		t.Errorf("go vet ./locked: exit %d, stderr\n%s", r.code, r.stderr)
	}
	r = run(t, dir, testEnv(), "go", "vet", "-vettool="+binary, "-heldcall=false", "-lockorder=false", "./locked")
	if r.code != 0 {
		t.Errorf("go vet -heldcall=false -lockorder=false: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestE2EInterrupt interrupts a run while go vet is busy (GOFLAGS=-a makes
// it rebuild everything) and checks that lockaudit exits promptly, leaves no
// process behind and removes the go command's temporary directories.
func TestE2EInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc")
	}
	dir := newModule(t, "locked")
	tmp := t.TempDir()
	cmd := exec.Command(binary, "./...")
	cmd.Dir = dir
	cmd.Env = testEnv("GOTMPDIR="+tmp, "GOFLAGS=-a")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// Wait until the go command has created its work directory.
	deadline := time.Now().Add(time.Minute)
	for {
		work, _ := filepath.Glob(filepath.Join(tmp, "*", "go-build*"))
		if len(work) > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("lockaudit finished before it could be interrupted: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("go vet did not start")
		}
	}
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(goCommandWaitDelay + 10*time.Second):
		cmd.Process.Kill()
		t.Fatal("lockaudit did not exit after SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != exitError || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 2 and 'interrupted'", code, stderr.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left in GOTMPDIR: %v", left)
	}
	// No process of the run may survive: they all have tmp in their
	// command lines (vet.cfg, -o $WORK/...).
	time.Sleep(100 * time.Millisecond)
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(tmp)) {
			t.Errorf("process left running: %s: %q", p, bytes.ReplaceAll(data, []byte{0}, []byte{' '}))
		}
	}
}
