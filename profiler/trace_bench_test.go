package profiler

import (
	"bytes"
	"io"
	"runtime/trace"
	"strconv"
	"sync"
	"testing"
)

// contendedLookups runs n lookups and n/50 expiries of a session table
// from 8 goroutines: a read-mostly RWMutex under contention, the shape
// the traces are for.
func contendedLookups(n int) {
	tab := &sessionTable{sessions: map[string]int{}}
	for i := range 1024 {
		tab.sessions[strconv.Itoa(i)] = i
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := g; i < n; i += 8 {
				key := strconv.Itoa(i % 1024)
				if i%50 == 0 {
					tab.mu.Lock()
					tab.sessions[key] = i
					tab.mu.Unlock()
					continue
				}
				tab.lookup(key)
			}
		})
	}
	wg.Wait()
}

// BenchmarkTraceOverhead measures what recording an execution trace costs
// a contended workload: compare trace=off with trace=on (benchstat).
func BenchmarkTraceOverhead(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run("trace="+map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			if on {
				if err := trace.Start(io.Discard); err != nil {
					b.Skip(err)
				}
				defer trace.Stop()
			}
			b.ReportAllocs()
			for b.Loop() {
				contendedLookups(20000)
			}
		})
	}
}

var (
	benchTraceOnce sync.Once
	benchTrace     []byte // one trace for every run, so that runs compare
)

// BenchmarkParseTrace measures reading the waits of a trace, in bytes of
// trace per second.
func BenchmarkParseTrace(b *testing.B) {
	benchTraceOnce.Do(func() {
		var buf bytes.Buffer
		if err := trace.Start(&buf); err != nil {
			return
		}
		contendedLookups(200000)
		trace.Stop()
		benchTrace = buf.Bytes()
	})
	data := benchTrace
	if data == nil {
		b.Skip("tracing unavailable")
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parseTrace(bytes.NewReader(data), DefaultMaxTraceBytes); err != nil {
			b.Fatal(err)
		}
	}
}
