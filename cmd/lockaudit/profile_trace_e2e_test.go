package main

// End-to-end tests of the execution-trace tails of lockaudit profile.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/trace"
	"strings"
	"sync"
	"testing"
)

// TestProfileWaitTails: on the schema cache's RWMutex at 16 goroutines,
// the trace gives the readers' and the writer's wait percentiles, names
// the writer convoy, and joins the global-map finding to the read site.
func TestProfileWaitTails(t *testing.T) {
	rep, stderr, code := runProfileBinary(t, "-run", "^$", "-bench", "Load/design=rwmutex/goroutines=16", "-benchtime", "100000x", "-top", "0", "./fixtures/schemacache")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var read, write bool
	for _, w := range rep.Waits {
		if !strings.HasSuffix(w.Function, "schemacache.(*SchemaCache).Get") && !strings.HasSuffix(w.Function, "schemacache.(*SchemaCache).UpdateTool") {
			continue
		}
		t.Logf("%s %s: %d waits, p50 %d ns, p99 %d ns, max %d ns, convoy %+v", w.Op, w.Function, w.Count, w.P50NS, w.P99NS, w.MaxNS, w.Convoy)
		if w.Count == 0 || w.P50NS > w.P99NS || w.P99NS > w.MaxNS || w.File != "fixtures/schemacache/cache.go" {
			t.Errorf("implausible site %+v", w)
		}
		globalMap := false
		for _, f := range w.Findings {
			globalMap = globalMap || f.Rule == "shardlock" && f.Category == "global-map"
		}
		if !globalMap {
			t.Errorf("%s %s: no global-map finding joined: %+v", w.Op, w.Function, w.Findings)
		}
		switch w.Op {
		case "RWMutex.RLock":
			read = true
			if w.Convoy == nil || w.Convoy.Waits == 0 || !strings.HasSuffix(w.Convoy.Writer, "(*SchemaCache).UpdateTool") {
				t.Errorf("read site without the writer convoy: %+v", w.Convoy)
			}
		case "RWMutex.Lock":
			write = true
		}
	}
	if !read || !write {
		t.Errorf("read site %v, write site %v; want both in %+v", read, write, rep.Waits)
	}
}

// TestProfileBadTraceInput: a truncated trace given with -in is an error
// of its own (exit 2) and the good trace beside it is still reported.
func TestProfileBadTraceInput(t *testing.T) {
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skipf("tracing unavailable: %v", err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	hits := 0
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				mu.Lock()
				hits++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	trace.Stop()
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.trace"), filepath.Join(dir, "cut.trace")
	if err := os.WriteFile(good, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, buf.Bytes()[:buf.Len()/2], 0o600); err != nil {
		t.Fatal(err)
	}
	rep, stderr, code := runProfileBinary(t, "-in", bad, "-in", good)
	if code != exitError {
		t.Errorf("exit %d, want 2", code)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].Package != bad || !strings.Contains(rep.Errors[0].Message, "truncated execution trace") {
		t.Errorf("errors %+v, want the truncated trace", rep.Errors)
	}
	if len(rep.Packages) != 1 || rep.Packages[0] != good {
		t.Errorf("packages %v, want the good trace", rep.Packages)
	}
	if !strings.Contains(stderr, "cut.trace: truncated execution trace") {
		t.Errorf("stderr does not name the bad trace in one line: %q", stderr)
	}
}

// TestProfileHoldingExplainsHotspot: a ledger runs a CPU-heavy callback
// under its lock. The callback is a closure the constructor builds, so the
// static analysis judges it known and quiet; the CPU profile recorded in
// the same run still says what the holder does while it holds.
func TestProfileHoldingExplainsHotspot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.26\n")
	writeFile(t, dir, "ledger/ledger.go", `package ledger

import (
	"crypto/sha256"
	"sync"
)

// Ledger keeps a running digest of the entries posted to it.
type Ledger struct {
	mu     sync.Mutex
	digest [32]byte
	onPost func(v int)
}

// NewLedger returns a ledger whose digest covers every entry.
func NewLedger() *Ledger {
	l := &Ledger{}
	l.onPost = func(v int) {
		for range 2000 {
			l.digest = sha256.Sum256(append(l.digest[:], byte(v)))
		}
	}
	return l
}

// Post adds an entry.
func (l *Ledger) Post(v int) {
	l.mu.Lock()
	l.onPost(v)
	l.mu.Unlock()
}
`)
	writeFile(t, dir, "ledger/ledger_test.go", `package ledger

import (
	"sync"
	"testing"
)

func TestConcurrentPosts(t *testing.T) {
	l := NewLedger()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				l.Post(g*100 + i)
			}
		})
	}
	wg.Wait()
}
`)
	r := run(t, dir, testEnv(), binary, "profile", "-format", "json", "./...")
	if r.code != exitClean {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep struct {
		Hotspots []struct {
			Kind, Function string
			Findings       []any
			Holding        *struct {
				Summary string
				Callees []struct {
					Function string
					Share    float64
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	for _, h := range rep.Hotspots {
		if h.Kind != "mutex" || h.Function != "example.com/m/ledger.(*Ledger).Post" {
			continue
		}
		if len(h.Findings) != 0 {
			t.Errorf("Post has static findings %v; the test wants a hotspot only the CPU profile explains", h.Findings)
		}
		if h.Holding == nil || len(h.Holding.Callees) == 0 || !strings.Contains(h.Holding.Callees[0].Function, "NewLedger.func") || h.Holding.Callees[0].Share < 0.5 ||
			!strings.HasPrefix(h.Holding.Summary, "l.mu held in ledger.(*Ledger).Post, ") {
			t.Errorf("Post's holding = %+v, want most of it in NewLedger.func1", h.Holding)
		}
		return
	}
	t.Errorf("Post is not a mutex hotspot: %s", r.stdout)
}
