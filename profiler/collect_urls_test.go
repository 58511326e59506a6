package profiler

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// contend runs goroutines that fight over one mutex, holding it for a
// while, until stop is closed.
func contend(stop <-chan struct{}) *sync.WaitGroup {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				//lockaudit:ignore heldcall the contention is what the test profiles
				time.Sleep(200 * time.Microsecond)
				mu.Unlock()
			}
		})
	}
	return &wg
}

func TestCollectURLsLive(t *testing.T) {
	srv := httptest.NewServer(Handler())
	defer srv.Close()
	// Like a service, turn on a base mutex fraction before the contention
	// starts: the runtime does not record waiters that were already queued
	// on a starving mutex when profiling was switched on (checked with Go
	// 1.26.8), so a window alone would miss a convoy already in progress.
	defer setMutexFraction(setMutexFraction(DefaultServiceMutexFraction))
	stop := make(chan struct{})
	wg := contend(stop)
	defer func() { close(stop); wg.Wait() }()

	c := NewCollection()
	CollectURLs(context.Background(), c, []string{srv.URL + "/debug/pprof/"}, URLOptions{Seconds: 1, Trace: true})
	if errs := c.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if c.Count(Mutex) != 1 || c.Count(Block) != 1 || c.Count(Fgprof) != 1 {
		t.Fatalf("profiles: mutex %d block %d fgprof %d, want one each", c.Count(Mutex), c.Count(Block), c.Count(Fgprof))
	}
	rep := BuildReport(c, ReportOptions{})
	var found bool
	for _, h := range rep.Hotspots {
		if h.Kind == Mutex && strings.HasSuffix(h.Function, "profiler.contend.func1") {
			found = h.Rank == 1
		}
	}
	if !found {
		var b strings.Builder
		rep.WriteText(&b)
		t.Errorf("the contending closure is not mutex hotspot 1:\n%s", b.String())
	}
	if len(rep.Packages) != 1 || rep.Packages[0] != srv.URL+"/debug/pprof/" {
		t.Errorf("packages = %v", rep.Packages)
	}
	// The window's execution trace has the contenders' lock waits.
	waited := false
	for _, w := range rep.Waits {
		waited = waited || w.Op == "Mutex.Lock" && strings.HasSuffix(w.Function, "profiler.contend.func1") && w.Count > 0
	}
	if rep.traces != 1 || !waited {
		t.Errorf("%d traces, waits %+v; want the contenders' Mutex.Lock waits", rep.traces, rep.Waits)
	}
}

func TestHandlerRestoresRates(t *testing.T) {
	srv := httptest.NewServer(NewHandler(HandlerOptions{MutexFraction: 7}))
	defer srv.Close()
	prev := setMutexFraction(3)
	defer setMutexFraction(prev)
	resp, err := http.Get(srv.URL + "/debug/pprof/mutex?seconds=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := setMutexFraction(-1); got != 3 {
		t.Errorf("mutex fraction after a window = %d, want the previous 3", got)
	}
}

// plainServer serves net/http/pprof alone (no fgprof) on a default mux.
func TestCollectURLsWithoutFgprof(t *testing.T) {
	mux := http.NewServeMux()
	Register(mux, HandlerOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/debug/fgprof") {
			http.NotFound(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := NewCollection()
	CollectURLs(context.Background(), c, []string{srv.URL}, URLOptions{Seconds: 1})
	if errs := c.Errors(); len(errs) > 0 || c.Count(Fgprof) != 0 || c.Count(Mutex) != 1 {
		t.Errorf("errors %v, fgprof %d, mutex %d: a 404 fgprof must be skipped quietly", errs, c.Count(Fgprof), c.Count(Mutex))
	}
}

func TestCollectURLsFailures(t *testing.T) {
	stall := make(chan struct{})
	defer close(stall)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 2<<20))
	}))
	defer big.Close()
	bombData := gzipped(t, make([]byte, 8<<20))
	bomb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bombData)
	}))
	defer bomb.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "profiling is\ndisabled", http.StatusForbidden)
	}))
	defer html.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	unreachable := closed.URL
	closed.Close()

	for _, tc := range []struct {
		name, url, want string
	}{
		{"slow", slow.URL, "no complete response within 1.2s"},
		{"oversized", big.URL, "response is larger than 1 MiB"},
		{"gzip bomb", bomb.URL, "decompressed profile is larger than 4 MiB"},
		{"forbidden", html.URL, "HTTP 403 Forbidden: profiling is; disabled"},
		{"unreachable", unreachable, "request failed"},
		{"bad url", "ftp://x", "bad URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCollection()
			start := time.Now()
			CollectURLs(context.Background(), c, []string{tc.url}, URLOptions{
				Seconds: 1, Grace: 200 * time.Millisecond,
				Limits: Limits{MaxBytes: 1 << 20, MaxDecompressed: 4 << 20},
			})
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			errs := c.Errors()
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			for _, e := range errs {
				if !strings.Contains(e.Message, tc.want) || strings.Contains(e.Message, "\n") {
					t.Errorf("%s: %q, want one line containing %q", e.Source, e.Message, tc.want)
				}
			}
		})
	}
}

// setMutexFraction wraps runtime.SetMutexProfileFraction for the tests.
func setMutexFraction(n int) int { return runtime.SetMutexProfileFraction(n) }
