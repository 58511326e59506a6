package driver

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/lockaudit/lockaudit/internal/report"
)

// The result cache lets the in-process driver skip a unit whose inputs it
// has seen: its files, the export data it was checked against, the facts
// of every unit it read (by their own keys, so a change anywhere below
// reaches it), this executable and the analyzer flags. An entry holds the
// unit's facts, diagnostics and errors. It plays the part of go vet's use
// of the build cache: a rerun on an unchanged tree, or a module's
// dependencies between runs, costs a read.
//
// The cache is $LOCKAUDIT_CACHE, or lockaudit under the user's cache
// directory; LOCKAUDIT_CACHE=off turns it off. Entries unused for
// cacheTrimAge are removed, at most once every cacheTrimEvery. Any failure
// to read or write an entry makes it a miss: the cache never changes a
// result.

// CacheEnv names the environment variable that sets the cache directory.
const CacheEnv = "LOCKAUDIT_CACHE"

const (
	cacheVersion   = "lockaudit-cache-1"
	cacheTrimAge   = 5 * 24 * time.Hour
	cacheTrimEvery = 24 * time.Hour
	cacheTouchAge  = time.Hour // an entry's mtime is refreshed on use when older
)

// A cacheKey names one unit's result.
type cacheKey [sha256.Size]byte

// resultCache is the result cache; a nil *resultCache caches nothing.
type resultCache struct {
	dir       string
	salt      []byte                  // this executable and the run's analyzer flags
	factTypes map[string]reflect.Type // the analyzers' fact types, by name
	target    *target

	mu      sync.Mutex
	closed  bool           // close was called: nothing more is written
	writing sync.WaitGroup // the writes under way
}

// close stops the cache's writes and waits for those under way, so that
// an interrupted run leaves no temporary file behind when it exits.
func (c *resultCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.writing.Wait()
}

// openCache returns the cache for a run of analyzers (all that run, those
// required included) with the analyzer flags flags for target t, or nil
// when it is off or cannot be used.
func openCache(analyzers []*analysis.Analyzer, flags []string, t *target) *resultCache {
	dir := os.Getenv(CacheEnv)
	if dir == "off" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "lockaudit")
	}
	exe, err := executableHash()
	if err != nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil
	}
	c := &resultCache{dir: dir, factTypes: make(map[string]reflect.Type), target: t}
	h := sha256.New()
	// The target: types' sizes follow GOARCH, and a pure-Go package's
	// files and export data can be the same for two targets.
	fmt.Fprintf(h, "%s\n%x\n%s/%s %s\n", cacheVersion, exe, t.goos, t.goarch, t.goversion)
	for _, a := range analyzers {
		fmt.Fprintf(h, "analyzer %s\n", a.Name)
	}
	for _, f := range flags {
		fmt.Fprintf(h, "flag %s\n", f)
	}
	c.salt = h.Sum(nil)
	for _, a := range analyzers {
		for _, f := range a.FactTypes {
			t := reflect.TypeOf(f)
			c.factTypes[factTypeName(t)] = t
		}
	}
	c.trim(time.Now())
	return c
}

// executableHash hashes the running executable: a rebuilt lockaudit
// never reads its predecessor's results.
func executableHash() ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

func factTypeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		return "*" + t.Elem().PkgPath() + "." + t.Elem().Name()
	}
	return t.PkgPath() + "." + t.Name()
}

// key returns the key of j's result, or false when it cannot have one (a
// file it cannot read, a unit it depends on without a key).
func (c *resultCache) key(j *job, exports map[string]string) (cacheKey, bool) {
	if c == nil {
		return cacheKey{}, false
	}
	u := j.u
	h := sha256.New()
	h.Write(c.salt)
	fmt.Fprintf(h, "unit %s\nreport %v\ngo %s\n", u.ImportPath, j.report, c.target.goVersion(u))
	// The bytes hashed are the bytes analysed (j.src): a file saved
	// between two reads must not file its new result under the old key.
	j.src = make(map[string][]byte, len(u.CompiledGoFiles))
	for _, name := range u.CompiledGoFiles {
		file := absIn(u.Dir, name)
		data, err := os.ReadFile(file)
		if err != nil {
			j.src = nil
			return cacheKey{}, false
		}
		j.src[file] = data
		fmt.Fprintf(h, "file %s %x\n", file, sha256.Sum256(data))
	}
	for _, id := range u.Deps {
		fmt.Fprintf(h, "dep %s %s\n", id, exports[id])
	}
	paths := make([]string, 0, len(j.providers))
	for p := range j.providers {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		prov := j.providers[p]
		if !prov.hasKey {
			return cacheKey{}, false
		}
		fmt.Fprintf(h, "facts %s %x\n", p, prov.key)
	}
	var k cacheKey
	h.Sum(k[:0])
	return k, true
}

// A cacheEntry is a unit's result as stored.
type cacheEntry struct {
	Facts  []cachedFact
	Diags  []byte // JSON of []vetDiagnostic
	Errs   []report.PackageError
	Failed bool
}

// A cachedFact is one frozen fact: the object's path ("" for a package
// fact), its type's name and its gob encoding.
type cachedFact struct {
	Obj  string
	Type string
	Data []byte
}

func (c *resultCache) file(k cacheKey) string {
	s := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, s[:2], s+"-r")
}

// get returns the result stored under k.
func (c *resultCache) get(k cacheKey) (unitResult, bool) {
	if c == nil {
		return unitResult{}, false
	}
	name := c.file(k)
	data, err := os.ReadFile(name)
	if err != nil {
		return unitResult{}, false
	}
	var e cacheEntry
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&e); err != nil {
		return unitResult{}, false
	}
	r := unitResult{errs: e.Errs, failed: e.Failed, facts: &frozenFacts{facts: make(map[factKey]analysis.Fact, len(e.Facts))}}
	if len(e.Diags) > 0 {
		if err := json.Unmarshal(e.Diags, &r.diags); err != nil {
			return unitResult{}, false
		}
	}
	for _, f := range e.Facts {
		t := c.factTypes[f.Type]
		if t == nil {
			return unitResult{}, false
		}
		fact := reflect.New(t.Elem()).Interface().(analysis.Fact)
		if err := gob.NewDecoder(bytes.NewReader(f.Data)).Decode(fact); err != nil {
			return unitResult{}, false
		}
		r.facts.facts[factKey{objectpath.Path(f.Obj), t}] = fact
	}
	if info, err := os.Stat(name); err == nil && time.Since(info.ModTime()) > cacheTouchAge {
		now := time.Now()
		_ = os.Chtimes(name, now, now) // only ages the entry: a failure costs a recomputation later
	}
	return r, true
}

// put stores r under k, atomically: a reader sees the whole entry or none.
func (c *resultCache) put(k cacheKey, r unitResult) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.writing.Add(1)
	c.mu.Unlock()
	defer c.writing.Done()
	e := cacheEntry{Errs: r.errs, Failed: r.failed}
	if len(r.diags) > 0 {
		data, err := json.Marshal(r.diags)
		if err != nil {
			return
		}
		e.Diags = data
	}
	if r.facts != nil {
		for fk, f := range r.facts.facts {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(f); err != nil {
				return // a fact gob cannot write: the unit is not cached
			}
			e.Facts = append(e.Facts, cachedFact{Obj: string(fk.obj), Type: factTypeName(fk.typ), Data: buf.Bytes()})
		}
		slices.SortFunc(e.Facts, func(a, b cachedFact) int {
			if a.Obj != b.Obj {
				return cmp.Compare(a.Obj, b.Obj)
			}
			return cmp.Compare(a.Type, b.Type)
		})
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&e); err != nil {
		return
	}
	name := c.file(k)
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "tmp-")
	if err != nil {
		return
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), name) != nil {
		os.Remove(tmp.Name())
	}
}

// trim removes entries unused for cacheTrimAge (and temporary files left
// by an interrupted write), at most once every cacheTrimEvery.
func (c *resultCache) trim(now time.Time) {
	stamp := filepath.Join(c.dir, "trim.txt")
	if info, err := os.Stat(stamp); err == nil && now.Sub(info.ModTime()) < cacheTrimEvery {
		return
	}
	if err := os.WriteFile(stamp, []byte(now.Format(time.RFC3339)+"\n"), 0o666); err != nil {
		return
	}
	_ = filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == stamp {
			return nil
		}
		if info, err := d.Info(); err == nil && now.Sub(info.ModTime()) > cacheTrimAge {
			os.Remove(path)
		}
		return nil
	})
}
