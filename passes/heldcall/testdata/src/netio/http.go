package netio

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"
)

// TokenSource refreshes an OAuth token from an identity provider.
type TokenSource struct {
	mu      sync.Mutex
	client  *http.Client
	url     string
	token   string
	expires time.Time
}

// TokenHeld refreshes with the source locked: every request in the process
// waits on the identity provider.
func (s *TokenSource) TokenHeld() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Now().Before(s.expires) {
		return s.token, nil
	}
	resp, err := http.Get(s.url) // want `s.mu held across call of http.Get \(locked at http.go:23, released by defer\)`
	if err != nil {
		return "", err
	}
	defer resp.Body.Close() // want `s.mu held across deferred call of interface method io.Closer.Close \(locked at http.go:23, released by defer\) \(plausible: io\.ReadCloser can be implemented outside this module\)`
	s.token = resp.Header.Get("X-Token")
	s.expires = time.Now().Add(time.Hour)
	return s.token, nil
}

// Token checks under the lock, refreshes without it, and stores the result.
func (s *TokenSource) Token() (string, error) {
	s.mu.Lock()
	tok, exp, url := s.token, s.expires, s.url
	s.mu.Unlock()
	if time.Now().Before(exp) {
		return tok, nil
	}
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	tok = resp.Header.Get("X-Token")
	s.mu.Lock()
	s.token, s.expires = tok, time.Now().Add(time.Hour)
	s.mu.Unlock()
	return tok, nil
}

// Forwarder relays batched events to a collector.
type Forwarder struct {
	mu     sync.Mutex
	client *http.Client
	batch  []*http.Request
}

func (f *Forwarder) FlushHeld() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, req := range f.batch {
		resp, err := f.client.Do(req) // want `f.mu held across call of http.\(\*Client\).Do \(locked at http.go:66, released by defer\)`
		if err != nil {
			return err
		}
		resp.Body.Close() // want `f.mu held across call of interface method io.Closer.Close \(locked at http.go:66, released by defer\) \(plausible: io\.ReadCloser can be implemented outside this module\)`
	}
	f.batch = nil
	return nil
}

func (f *Forwarder) Flush() error {
	f.mu.Lock()
	batch := f.batch
	f.batch = nil
	f.mu.Unlock()
	for _, req := range batch {
		resp, err := f.client.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
	}
	return nil
}

// StatusPage serves the state of a job scheduler.
type StatusPage struct {
	mu   sync.RWMutex
	jobs map[string]string
}

// ServeHTTPHeld writes the response with the scheduler's state locked: a
// slow client holds up the scheduler.
func (p *StatusPage) ServeHTTPHeld(w http.ResponseWriter, r *http.Request) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	body, err := json.Marshal(p.jobs)
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.Write(body) // want `p.mu held across call of net/http.ResponseWriter.Write \(locked at http.go:103, released by defer\)`
}

func (p *StatusPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.RLock()
	body, err := json.Marshal(p.jobs)
	p.mu.RUnlock()
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.Write(body)
}

// Mirror copies an upstream body to a local buffer.
type Mirror struct {
	mu   sync.Mutex
	last []byte
}

func (m *Mirror) SyncHeld(resp *http.Response) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := io.ReadAll(resp.Body) // want `m.mu held across call of io.ReadAll \(locked at http.go:131, released by defer\)`
	if err != nil {
		return err
	}
	m.last = b
	return nil
}

func (m *Mirror) Sync(resp *http.Response) error {
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.last = b
	m.mu.Unlock()
	return nil
}
