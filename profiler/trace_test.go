package profiler

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/trace"
	"strings"
	"sync"
	"testing"
	"time"
)

// sessionTable is a small RWMutex-guarded registry for the traces below.
type sessionTable struct {
	mu       sync.RWMutex
	sessions map[string]int
}

func (t *sessionTable) lookup(id string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sessions[id]
}

// scan holds the read lock until release is closed.
func (t *sessionTable) scan(held chan<- struct{}, release <-chan struct{}) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	close(held)
	<-release
}

func (t *sessionTable) expire(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.sessions, id)
}

// convoyTrace records a trace in which a reader holds the lock, a writer
// queues behind it, and a second reader queues behind the writer: the
// writer-preferring lock's convoy, made deterministic with TryRLock (which
// fails exactly when a writer is pending).
func convoyTrace(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skipf("tracing unavailable: %v", err)
	}
	tab := &sessionTable{sessions: map[string]int{"a": 1}}
	held, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { tab.scan(held, release) })
	<-held
	wg.Go(func() { tab.expire("a") })
	for tab.mu.TryRLock() { // until the writer is queued
		tab.mu.RUnlock()
		runtime.Gosched()
	}
	wg.Go(func() { tab.lookup("a") })
	time.Sleep(10 * time.Millisecond) // let the second reader block behind the writer
	close(release)
	wg.Wait()
	trace.Stop()
	return buf.Bytes()
}

func TestParseTraceConvoy(t *testing.T) {
	data := convoyTrace(t)
	set, capped, err := parseTrace(bytes.NewReader(data), DefaultMaxTraceBytes)
	if err != nil || capped {
		t.Fatalf("parseTrace: capped %v, err %v", capped, err)
	}
	sites := set.sitesByTail(func(s string) string { return s })
	var reader, writer *WaitSite
	for _, s := range sites {
		switch {
		case strings.HasSuffix(s.Function, ".(*sessionTable).lookup") && s.Op == "RWMutex.RLock":
			reader = s
		case strings.HasSuffix(s.Function, ".(*sessionTable).expire") && s.Op == "RWMutex.Lock":
			writer = s
		}
	}
	if writer == nil || writer.Count != 1 || writer.P99NS < int64(5*time.Millisecond) {
		t.Fatalf("writer site = %+v, want one wait of the reader's 10ms hold", writer)
	}
	if reader == nil || reader.Count != 1 || reader.Convoy == nil || reader.Convoy.Waits != 1 ||
		!strings.HasSuffix(reader.Convoy.Writer, ".(*sessionTable).expire") {
		t.Fatalf("reader site = %+v (convoy %+v), want one wait behind the queued expire", reader, reader.Convoy)
	}
	if reader.MaxNS != reader.P99NS || reader.P50NS != reader.P99NS || reader.TotalNS != reader.MaxNS {
		t.Errorf("one wait: p50 %d, p99 %d, max %d, total %d should be equal", reader.P50NS, reader.P99NS, reader.MaxNS, reader.TotalNS)
	}
	if sites[0].P99NS < sites[len(sites)-1].P99NS {
		t.Errorf("sites not sorted by p99")
	}
	// The scan and the test's own waits are not sync waits of the table
	// (a channel receive, and the test harness): no other site of it.
	for _, s := range sites {
		if strings.Contains(s.Function, "sessionTable") && s != reader && s != writer {
			t.Errorf("unexpected site %s %s", s.Op, s.Function)
		}
	}
}

func TestParseTraceBadInput(t *testing.T) {
	data := convoyTrace(t)
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"not a trace", "not an execution trace", []byte("mutex profile, honest")},
		{"truncated", "truncated execution trace", data[:len(data)*2/3]},
		{"corrupt", "execution trace", corrupt(data)},
	} {
		_, _, err := parseTrace(bytes.NewReader(tc.data), DefaultMaxTraceBytes)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	// Cut by the size cap, the trace is not an error: the waits read are
	// kept and the cut is reported.
	_, capped, err := parseTrace(bytes.NewReader(data), int64(len(data)/2))
	if err != nil || !capped {
		t.Errorf("capped read: capped %v, err %v; want capped and no error", capped, err)
	}
}

// corrupt overwrites the body of a trace with garbage, keeping its header.
func corrupt(data []byte) []byte {
	out := bytes.Clone(data)
	for i := 16; i < len(out); i++ {
		out[i] = 0xff
	}
	return out
}

// TestCollectFilesTraces: trace files given with -in are recognised by
// their header; a corrupt one is an error of its own and the good one is
// still reported.
func TestCollectFilesTraces(t *testing.T) {
	dir := t.TempDir()
	data := convoyTrace(t)
	good, bad := filepath.Join(dir, "good.trace"), filepath.Join(dir, "bad.trace")
	if err := os.WriteFile(good, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	c := NewCollection()
	CollectFiles(c, []string{bad, good}, Limits{})
	errs := c.Errors()
	if len(errs) != 1 || errs[0].Source != bad || !strings.Contains(errs[0].Message, "truncated execution trace") {
		t.Errorf("errors = %+v, want the truncated file only", errs)
	}
	rep := BuildReport(c, ReportOptions{})
	if rep.traces != 1 || len(rep.Waits) == 0 || strings.Join(rep.Packages, " ") != good {
		t.Fatalf("report: %d traces, %d wait sites, packages %v", rep.traces, len(rep.Waits), rep.Packages)
	}
	var text, md bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{text.String(), md.String()} {
		if !strings.Contains(out, "writer convoy: 1 of 1 read waits began while a writer (profiler.(*sessionTable).expire) was queued") {
			t.Errorf("no convoy note in:\n%s", out)
		}
	}
}

func TestPercentile(t *testing.T) {
	var v []int64
	for i := int64(1); i <= 1000; i++ {
		v = append(v, i)
	}
	for p, want := range map[int]int64{50: 500, 90: 900, 99: 990, 100: 1000} {
		if got := percentile(v, p); got != want {
			t.Errorf("p%d of 1..1000 = %d, want %d", p, got, want)
		}
	}
	if got := percentile([]int64{7}, 99); got != 7 {
		t.Errorf("p99 of one value = %d", got)
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of none = %d", got)
	}
}

// TestTopKeepsConvoys: -top cuts the waits table, but never a site with a
// writer convoy.
func TestTopKeepsConvoys(t *testing.T) {
	set, _, err := parseTrace(bytes.NewReader(convoyTrace(t)), DefaultMaxTraceBytes)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollection()
	c.addWaits("trace", set, false)
	rep := BuildReport(c, ReportOptions{Top: 1})
	convoy := false
	for _, w := range rep.Waits {
		convoy = convoy || w.Convoy != nil
	}
	if !convoy || len(rep.Waits) > 2 {
		t.Errorf("waits with -top 1 = %d sites, convoy kept %v", len(rep.Waits), convoy)
	}
}
