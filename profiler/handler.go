package profiler

import (
	"net/http"
	"net/http/pprof"
	"runtime"
	"strconv"
	"sync"

	"github.com/felixge/fgprof"
)

// HandlerOptions set the profiling rates a Handler uses during a window.
type HandlerOptions struct {
	// MutexFraction is the mutex profile fraction during a window (on
	// average 1 in MutexFraction contention events is recorded). Zero means
	// DefaultServiceMutexFraction. A finer fraction already set by the
	// service is kept.
	MutexFraction int
	// BlockRate is the block profile rate in nanoseconds during a window.
	// Zero means DefaultServiceBlockRate.
	BlockRate int
	// BaseBlockRate is the block profile rate restored after a window. Go
	// has no way to read the current rate, so the handler cannot save it:
	// a service that profiles blocking all the time must say so here. Zero
	// means off, the runtime's default.
	BaseBlockRate int
}

// Rates for live services, lower than for test binaries: a service under
// load pays them on every contended unlock and every recorded wait.
const (
	DefaultServiceMutexFraction = 10
	DefaultServiceBlockRate     = 10000 // nanoseconds
)

// Handler returns an http.Handler serving net/http/pprof's endpoints under
// /debug/pprof/ and fgprof's at /debug/fgprof, with the default rates. See
// NewHandler.
func Handler() http.Handler { return NewHandler(HandlerOptions{}) }

// NewHandler returns an http.Handler for a service's debug port that serves
// everything lockaudit profile -url collects:
//
//	/debug/pprof/...                 net/http/pprof (index, profile, trace, ...)
//	/debug/pprof/mutex?seconds=N     delta mutex profile over N seconds
//	/debug/pprof/block?seconds=N     delta block profile over N seconds
//	/debug/fgprof?seconds=N          fgprof wall-clock profile (&format=pprof)
//
// For the length of a mutex or block window (a request with seconds) it
// turns on mutex and block profiling at the options' rates and afterwards
// restores the previous rates, so the service pays for profiling only while
// someone profiles it. Overlapping windows share one setting; the last to
// end restores.
//
// A caveat measured with Go 1.26.8: goroutines already queued on a
// starving sync.Mutex when the window opens are not recorded in the mutex
// profile, so a convoy that is already running is missed. A service that
// wants it seen should set a low base fraction at start-up
// (runtime.SetMutexProfileFraction); the handler keeps a finer one.
func NewHandler(opts HandlerOptions) http.Handler {
	mux := http.NewServeMux()
	Register(mux, opts)
	return mux
}

// Register adds NewHandler's endpoints to mux.
func Register(mux *http.ServeMux, opts HandlerOptions) {
	w := &rateWindow{opts: opts}
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.Handle("/debug/pprof/mutex", w.wrap(pprof.Handler("mutex")))
	mux.Handle("/debug/pprof/block", w.wrap(pprof.Handler("block")))
	mux.Handle("/debug/fgprof", fgprof.Handler())
}

// profilingRates is the process-wide state of the windows: the runtime's
// rates are global, so every handler shares it.
var profilingRates struct {
	mu        sync.Mutex
	active    int // windows open
	prevMutex int // mutex fraction before the first open window
	baseBlock int // block rate to restore when the last window ends
}

// A rateWindow turns profiling on around delta-profile requests.
type rateWindow struct {
	opts HandlerOptions
}

// wrap returns h with the rates enabled while it serves a request with a
// positive seconds parameter.
func (w *rateWindow) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		if sec, err := strconv.Atoi(req.FormValue("seconds")); err == nil && sec > 0 {
			w.open()
			defer w.close()
		}
		h.ServeHTTP(rw, req)
	})
}

// open starts a window, setting the rates if it is the first one.
func (w *rateWindow) open() {
	s := &profilingRates
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active++
	if s.active > 1 {
		return
	}
	mutex := w.opts.MutexFraction
	if mutex <= 0 {
		mutex = DefaultServiceMutexFraction
	}
	s.prevMutex = runtime.SetMutexProfileFraction(-1)
	if s.prevMutex > 0 && s.prevMutex < mutex {
		mutex = s.prevMutex // the service already samples more finely
	}
	runtime.SetMutexProfileFraction(mutex)
	block := w.opts.BlockRate
	if block <= 0 {
		block = DefaultServiceBlockRate
	}
	s.baseBlock = w.opts.BaseBlockRate
	runtime.SetBlockProfileRate(block)
}

// close ends a window, restoring the rates if it was the last one.
func (w *rateWindow) close() {
	s := &profilingRates
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
	if s.active > 0 {
		return
	}
	runtime.SetMutexProfileFraction(s.prevMutex)
	runtime.SetBlockProfileRate(s.baseBlock)
}
