// Models grpc-go#795 (GoKer grpc_795): the idempotency branch of GracefulStop calls s.mu.Lock() where it meant Unlock, so a second GracefulStop deadlocks on its own mutex and leaves it held for Serve (direct double lock + leak on an early return).
package grpc_gracefulstop_relock

import (
	"net"
	"sync"
)

// ServerTransport is one accepted HTTP/2 connection.
type ServerTransport interface {
	Drain()
}

type http2Server struct {
	draining bool
}

func (t *http2Server) Drain() { t.draining = true }

// Server is a gRPC server. Buggy version.
type Server struct {
	mu    sync.Mutex
	cv    *sync.Cond
	lis   map[net.Listener]bool
	conns map[ServerTransport]bool
	drain bool
}

// NewServer returns a server with no listeners.
func NewServer() *Server {
	s := &Server{lis: map[net.Listener]bool{}, conns: map[ServerTransport]bool{}}
	s.cv = sync.NewCond(&s.mu)
	return s
}

func (s *Server) addConn(st ServerTransport) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns == nil || s.drain {
		return false
	}
	s.conns[st] = true
	return true
}

func (s *Server) removeConn(st ServerTransport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, st)
	s.cv.Broadcast()
}

// GracefulStop stops accepting and waits for the open connections to finish.
func (s *Server) GracefulStop() {
	s.mu.Lock()
	if s.drain || s.conns == nil {
		s.mu.Lock() // BUG: meant Unlock; the second GracefulStop blocks here
		return
	}
	s.drain = true
	for lis := range s.lis {
		lis.Close()
	}
	s.lis = nil
	for st := range s.conns {
		st.Drain()
	}
	for len(s.conns) != 0 {
		s.cv.Wait()
	}
	s.conns = nil
	s.mu.Unlock()
}

// ServerFixed is the fixed version: the unlock is deferred.
type ServerFixed struct {
	mu    sync.Mutex
	cv    *sync.Cond
	lis   map[net.Listener]bool
	conns map[ServerTransport]bool
	drain bool
}

// NewServerFixed returns a server with no listeners.
func NewServerFixed() *ServerFixed {
	s := &ServerFixed{lis: map[net.Listener]bool{}, conns: map[ServerTransport]bool{}}
	s.cv = sync.NewCond(&s.mu)
	return s
}

func (s *ServerFixed) addConn(st ServerTransport) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns == nil || s.drain {
		return false
	}
	s.conns[st] = true
	return true
}

func (s *ServerFixed) removeConn(st ServerTransport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, st)
	s.cv.Broadcast()
}

// GracefulStop stops accepting and waits for the open connections to finish.
func (s *ServerFixed) GracefulStop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drain || s.conns == nil {
		return
	}
	s.drain = true
	for lis := range s.lis {
		lis.Close()
	}
	s.lis = nil
	for st := range s.conns {
		st.Drain()
	}
	for len(s.conns) != 0 {
		s.cv.Wait()
	}
	s.conns = nil
}

var _ ServerTransport = (*http2Server)(nil)
