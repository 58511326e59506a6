package precision

import (
	"io"
	"net/http"
	"strings"
	"sync"
)

// A readiness handler answers under its lock. A short constant reply is
// buffered by net/http and sent after the handler returns, so the lock is
// not held across the network; a reply built from the plugins' names is
// written as it comes, and a large one reaches the connection.

type Readiness struct {
	mu       sync.RWMutex
	done     bool
	notReady []string
}

// ServeHTTP writes constant replies under the read lock. Not a finding.
func (r *Readiness) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if !r.done {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "shutting down")
		return
	}
	if len(r.notReady) == 0 {
		w.Write([]byte(http.StatusText(http.StatusOK)))
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	w.Write([]byte("not ready"))
}

// Detail writes the names of the plugins not ready yet under the lock.
func (r *Readiness) Detail(w http.ResponseWriter, _ *http.Request) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	io.WriteString(w, strings.Join(r.notReady, ",")) // want `r.mu held across call of io.WriteString, which calls net/http.ResponseWriter.Write on w`
}
