package driver

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/internal/report"
)

var factAnalyzer = &analysis.Analyzer{Name: "blocks", Doc: "test facts", FactTypes: []analysis.Fact{new(testFact)},
	Run: func(*analysis.Pass) (any, error) { return nil, nil }}

func testCache(t *testing.T, flags ...string) *resultCache {
	t.Helper()
	t.Setenv(CacheEnv, t.TempDir())
	c := openCache([]*analysis.Analyzer{factAnalyzer}, flags, testTarget)
	if c == nil {
		t.Fatal("no cache")
	}
	return c
}

// keyed returns j's key, failing if it has none, and records it as the
// driver does.
func keyed(t *testing.T, c *resultCache, j *job) cacheKey {
	t.Helper()
	k, ok := c.key(j, map[string]string{})
	if !ok {
		t.Fatalf("%s: no key", j.u.ImportPath)
	}
	j.key, j.hasKey = k, true
	return k
}

// TestCacheKeyFollowsDependencies checks that a unit's key changes with
// its own files and with any file of a unit whose facts it reads, and
// comes back when they do.
func TestCacheKeyFollowsDependencies(t *testing.T) {
	c := testCache(t)
	storeDir, serverDir := t.TempDir(), t.TempDir()
	store := &job{u: writeUnit(t, storeDir, "example.com/store", "package store\n\nfunc Flush() {}\n")}
	server := &job{u: writeUnit(t, serverDir, "example.com/server", "package server\n\nimport \"example.com/store\"\n\nfunc Save() { store.Flush() }\n"),
		report: true, providers: map[string]*job{"example.com/store": store}}
	keyed(t, c, store)
	k1 := keyed(t, c, server)

	writeUnit(t, storeDir, "example.com/store", "package store\n\nimport \"time\"\n\nfunc Flush() { time.Sleep(1) }\n")
	keyed(t, c, store)
	if k2 := keyed(t, c, server); k2 == k1 {
		t.Error("the server's key did not change with the store's source")
	}
	writeUnit(t, storeDir, "example.com/store", "package store\n\nfunc Flush() {}\n")
	keyed(t, c, store)
	if k3 := keyed(t, c, server); k3 != k1 {
		t.Error("the server's key did not come back with the store's source")
	}

	server.report = false
	if k := keyed(t, c, server); k == k1 {
		t.Error("the key does not tell a unit analysed for its facts from one that reports")
	}
	server.report = true

	other := testCache(t, "-heldcall.severity=note")
	keyed(t, other, store)
	if k := keyed(t, other, server); k == k1 {
		t.Error("the key does not depend on the analyzer flags")
	}

	store.hasKey = false
	if _, ok := c.key(server, nil); ok {
		t.Error("a unit reading the facts of a unit without a key has a key")
	}
}

// TestCacheRoundTrip checks that an entry gives back the facts,
// diagnostics and errors stored, and that a damaged entry is a miss.
func TestCacheRoundTrip(t *testing.T) {
	c := testCache(t)
	factType := reflect.TypeOf(new(testFact))
	in := unitResult{
		diags: []vetDiagnostic{{Package: "example.com/server", Analyzer: "heldcall", jsonDiagnostic: jsonDiagnostic{
			Category: "sleep", Posn: "/m/server/s.go:5:2", End: "/m/server/s.go:5:20", Message: "mu held across time.Sleep",
			Related: []jsonRelatedInfo{{Posn: "/m/server/s.go:4:2", End: "/m/server/s.go:4:2", Message: "mu locked here"}}}}},
		errs: []report.PackageError{{Package: "example.com/server", Message: "heldcall: something"}},
		facts: &frozenFacts{facts: map[factKey]analysis.Fact{
			{"T.Save", factType}: &testFact{Blocks: []string{"sleep"}},
			{"", factType}:       &testFact{Blocks: []string{"package"}},
		}},
	}
	var k cacheKey
	k[0] = 7
	if _, ok := c.get(k); ok {
		t.Fatal("a hit in an empty cache")
	}
	c.put(k, in)
	out, ok := c.get(k)
	if !ok {
		t.Fatal("a miss after put")
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("got %+v\nwant %+v", out, in)
	}
	if err := os.WriteFile(c.file(k), []byte("not an entry"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.get(k); ok {
		t.Error("a damaged entry is a hit")
	}
}

// TestCacheOff checks LOCKAUDIT_CACHE=off.
func TestCacheOff(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	c := openCache(nil, nil, testTarget)
	if c != nil {
		t.Fatal("a cache with LOCKAUDIT_CACHE=off")
	}
	if _, ok := c.key(&job{u: &unit{}}, nil); ok {
		t.Error("a key without a cache")
	}
	c.put(cacheKey{}, unitResult{}) // no-op
	if _, ok := c.get(cacheKey{}); ok {
		t.Error("a hit without a cache")
	}
}

// TestCacheTrim checks that entries unused for cacheTrimAge go, the
// others stay, and that trimming runs at most once every cacheTrimEvery.
func TestCacheTrim(t *testing.T) {
	c := testCache(t)
	old, recent := cacheKey{1}, cacheKey{2}
	c.put(old, unitResult{})
	c.put(recent, unitResult{})
	now := time.Now()
	past := now.Add(-cacheTrimAge - time.Hour)
	if err := os.Chtimes(c.file(old), past, past); err != nil {
		t.Fatal(err)
	}
	c.trim(now) // openCache trimmed just now: not yet
	if _, err := os.Stat(c.file(old)); err != nil {
		t.Fatalf("trimmed again within %v: %v", cacheTrimEvery, err)
	}
	c.trim(now.Add(cacheTrimEvery + time.Minute))
	if _, err := os.Stat(c.file(old)); !os.IsNotExist(err) {
		t.Errorf("an entry unused for %v is still there: %v", cacheTrimAge, err)
	}
	if _, err := os.Stat(c.file(recent)); err != nil {
		t.Errorf("a recent entry was trimmed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.dir, "trim.txt")); err != nil {
		t.Errorf("no trim stamp: %v", err)
	}
}
