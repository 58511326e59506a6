package profiler

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// htmlText parses an HTML document leniently and returns its text and the
// names and values of its attributes.
func htmlText(t *testing.T, doc []byte) (text string, attrs []xml.Attr, elems []string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	var b strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the HTML does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.CharData:
			b.Write(tok)
		case xml.StartElement:
			elems = append(elems, tok.Name.Local)
			attrs = append(attrs, tok.Attr...)
		}
	}
	return b.String(), attrs, elems
}

// TestWriteHTML: the HTML report shows every hotspot and every wait
// percentile of the JSON report, draws a histogram per wait site and the
// benchmark tail chart, and stands alone: no script, no external
// reference.
func TestWriteHTML(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ledger.go")
	if err := os.WriteFile(file, []byte(ledgerSource), 0o600); err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/ledger"
	c := NewCollection()
	c.add(Mutex, contentionProfile(fakeStack{[]string{"sync.(*Mutex).Unlock /go/src/sync/mutex.go:65", pkg + ".(*Ledger).Post " + file + ":15"}, 10, 5e6}))
	c.add(Block, contentionProfile(fakeStack{[]string{"sync.(*Mutex).Lock /go/src/sync/mutex.go:46", pkg + ".(*Ledger).Post " + file + ":12"}, 10, 9e6}))
	c.add(CPU, cpuProfile(fakeStack{[]string{pkg + ".NewLedger.func1 " + file + ":99", pkg + ".(*Ledger).Post " + file + ":14"}, 1, 3e6}))
	set, _, err := parseTrace(bytes.NewReader(convoyTrace(t)), DefaultMaxTraceBytes)
	if err != nil {
		t.Fatal(err)
	}
	c.addWaits("trace", set, false)
	c.addBenchResults(parseBenchResults("example.com/cache", `goos: linux
BenchmarkLoad/design=rwmutex/goroutines=2-2   	  100000	      1100 ns/op	      1300 p50-ns	      5900 p99-ns
BenchmarkLoad/design=rwmutex/goroutines=8-2   	  100000	      1200 ns/op	      1300 p50-ns	     58000 p99-ns
BenchmarkLoad/design=sharded32/goroutines=2-2 	  100000	      1000 ns/op	      1200 p50-ns	      2800 p99-ns
BenchmarkLoad/design=sharded32/goroutines=8-2 	  100000	      1000 ns/op	      1200 p50-ns	      3000 p99-ns
PASS
`))
	findings := []StaticFinding{{Finding: Finding{Rule: "heldcall", Category: "callback", File: "ledger.go", Line: 14, Message: "l.mu held across call of func value l.onPost"}, Function: "(*Ledger).Post", Package: pkg}}
	rep := BuildReport(c, ReportOptions{Root: dir, Findings: findings})

	var js, page bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	text, attrs, elems := htmlText(t, page.Bytes())
	var fromJSON struct {
		Hotspots []struct{ Function string }
		Waits    []struct {
			Function string
			P50NS    int64 `json:"p50_ns"`
			P90NS    int64 `json:"p90_ns"`
			P99NS    int64 `json:"p99_ns"`
			MaxNS    int64 `json:"max_ns"`
		}
	}
	if err := json.Unmarshal(js.Bytes(), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if len(fromJSON.Hotspots) != 2 || len(fromJSON.Waits) == 0 {
		t.Fatalf("the report has %d hotspots and %d wait sites", len(fromJSON.Hotspots), len(fromJSON.Waits))
	}
	for _, h := range fromJSON.Hotspots {
		if !strings.Contains(text, shortName(h.Function)) {
			t.Errorf("hotspot %s missing", h.Function)
		}
	}
	for _, w := range fromJSON.Waits {
		for _, ns := range []int64{w.P50NS, w.P90NS, w.P99NS, w.MaxNS} {
			if !strings.Contains(text, duration(float64(ns))) {
				t.Errorf("wait site %s: percentile %s missing", w.Function, duration(float64(ns)))
			}
		}
	}
	for _, want := range []string{
		"l.mu held in ledger.(*Ledger).Post, 100.0% of on-CPU time under it in ledger.NewLedger.func1", // holding
		"l.mu held across call of func value l.onPost",                                                 // the finding
		"l.onPost(v)",                            // the critical section's source
		"writer convoy: 1 of 1 read waits began", // the convoy
		"BenchmarkLoad: p99 by goroutines",       // the tail chart
		"design=rwmutex", "design=sharded32",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	svgs := 0
	for _, e := range elems {
		switch e {
		case "svg":
			svgs++
		case "script", "link", "img", "iframe", "object":
			t.Errorf("the page has a <%s>: not self-contained", e)
		}
	}
	if want := len(rep.Waits) + 1; svgs != want {
		t.Errorf("%d SVGs, want %d (a histogram per wait site and the chart)", svgs, want)
	}
	for _, a := range attrs {
		if (a.Name.Local == "href" || a.Name.Local == "src") && !strings.HasPrefix(a.Value, "#") {
			t.Errorf("external reference %s=%q", a.Name.Local, a.Value)
		}
	}
}

func TestTailCharts(t *testing.T) {
	charts := tailCharts(parseBenchResults("p", `BenchmarkLoad/design=mutex/goroutines=16-2 10 5 ns/op 9 p99-ns
BenchmarkLoad/design=mutex/goroutines=2-2 10 5 ns/op 7 p99-ns
BenchmarkLoad/design=rwmutex/goroutines=2-2 10 5 ns/op 8 p99-ns
BenchmarkOther-2 10 5 ns/op
BenchmarkLoad/design=mutex/goroutines=8 is a log line, not a result
`))
	if len(charts) != 1 {
		t.Fatalf("charts = %+v", charts)
	}
	c := charts[0]
	if c.Title != "BenchmarkLoad" || c.Param != "goroutines" || len(c.Xs) != 2 || c.Xs[0] != 2 || c.Xs[1] != 16 {
		t.Errorf("chart = %+v", c)
	}
	if len(c.Series) != 2 || c.Series[0].Name != "design=mutex" || c.Series[0].P99[0] != 7 || c.Series[0].P99[1] != 9 ||
		c.Series[1].Name != "design=rwmutex" || c.Series[1].P99[1] != 0 {
		t.Errorf("series = %+v", c.Series)
	}
}
