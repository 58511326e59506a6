package sleepwait

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"
)

// Uploader limits concurrent uploads with a semaphore.
type Uploader struct {
	mu      sync.Mutex
	sem     *semaphore.Weighted
	pending map[string][]byte
}

// EnqueueHeld waits for an upload slot with the pending table locked.
func (u *Uploader) EnqueueHeld(ctx context.Context, name string, data []byte) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := u.sem.Acquire(ctx, 1); err != nil { // want `u.mu held across call of semaphore.\(\*Weighted\).Acquire \(locked at limits.go:22, released by defer\)`
		return err
	}
	u.pending[name] = data
	return nil
}

// Enqueue takes the slot first and records the upload after.
func (u *Uploader) Enqueue(ctx context.Context, name string, data []byte) error {
	if err := u.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	u.mu.Lock()
	u.pending[name] = data
	u.mu.Unlock()
	return nil
}

// Profiles caches user profiles, deduplicating loads.
type Profiles struct {
	mu     sync.RWMutex
	cache  map[string]string
	flight singleflight.Group
	load   func(id string) (any, error)
}

// GetHeld waits on the in-flight load with the cache locked: a second
// caller waits for the first while holding the lock the first needs.
func (p *Profiles) GetHeld(id string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.cache[id]; ok {
		return v, nil
	}
	v, err, _ := p.flight.Do(id, func() (any, error) { return p.load(id) }) // want `p.mu held across call of singleflight.\(\*Group\).Do \(locked at limits.go:53, released by defer\)`
	if err != nil {
		return "", err
	}
	p.cache[id] = v.(string)
	return v.(string), nil
}

func (p *Profiles) Get(id string) (string, error) {
	p.mu.RLock()
	v, ok := p.cache[id]
	p.mu.RUnlock()
	if ok {
		return v, nil
	}
	res, err, _ := p.flight.Do(id, func() (any, error) { return p.load(id) })
	if err != nil {
		return "", err
	}
	p.mu.Lock()
	p.cache[id] = res.(string)
	p.mu.Unlock()
	return res.(string), nil
}

// Server tracks in-flight requests so that Shutdown can wait for them.
type Server struct {
	mu       sync.Mutex
	wg       sync.WaitGroup
	closing  bool
	handlers map[string]http.Handler
}

// ShutdownHeld waits for in-flight requests with s.mu held; a request
// that looks up a handler under s.mu never finishes.
func (s *Server) ShutdownHeld() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return errors.New("already shutting down")
	}
	s.closing = true
	s.wg.Wait() // want `s.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at limits.go:94, released by defer\)`
	return nil
}

// ServeHTTP looks up the request's handler under s.mu.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.handlers[r.URL.Path]
	s.mu.Unlock()
	if h != nil {
		h.ServeHTTP(w, r)
	}
}

// Shutdown flags the server under the lock and waits without it.
func (s *Server) Shutdown() error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return errors.New("already shutting down")
	}
	s.closing = true
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}
