package main

// End-to-end tests of the execution-trace tails of lockaudit profile.

import (
	"bytes"
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
