package precision

import (
	"net"
	"sync"
	"sync/atomic"
)

// A client stream can be closed from several places at once (the reader
// on a reset, the caller on cancel, the transport on shutdown). The first
// closer claims the stream; a later one waits for the first to finish,
// which is short: it records the status and closes the channels.

type rpcStream struct {
	state   atomic.Int32
	status  error
	done    chan struct{}
	headers chan struct{}
	pending *pendingTable
}

type pendingTable struct {
	mu     sync.Mutex
	active map[*rpcStream]bool
}

func (t *pendingTable) remove(s *rpcStream) {
	t.mu.Lock()
	delete(t.active, s)
	t.mu.Unlock()
}

// finish closes the stream once: a second closer waits for the first.
func (s *rpcStream) finish(err error) {
	if s.state.Swap(1) == 1 {
		<-s.done // the first closer is on its way to close(done)
		return
	}
	s.status = err
	close(s.headers)
	s.pending.remove(s)
	close(s.done)
}

// A stream cancelled before it was sent closes itself the same way.
func (s *rpcStream) abandon() {
	if s.state.Swap(1) == 1 {
		return
	}
	s.status = net.ErrClosed
	close(s.done)
}

type rpcAttempt struct {
	mu     sync.Mutex
	stream *rpcStream
	trace  []string
}

// End finishes the attempt's stream under the attempt's lock: waiting for
// a concurrent closer lasts that closer's bookkeeping. Not a finding.
func (a *rpcAttempt) End(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.trace = append(a.trace, "end")
	a.stream.finish(err)
}

// EndRemoving finishes the stream while holding the pending table's lock,
// which the first closer needs before it can close done: a second closer
// waits for it forever.
func (a *rpcAttempt) EndRemoving(t *pendingTable, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a.stream.finish(err) // want `t.mu held across call of \(\*rpcStream\).finish, which blocks: \(\*rpcStream\).finish -> channel receive \(locked at closers.go:73, released by defer\)`
}

// A flushed stream's first closer writes the trailer to the connection
// before it closes done: a second closer waits for that network write.

type flushedStream struct {
	state atomic.Int32
	conn  net.Conn
	done  chan struct{}
}

func (s *flushedStream) finish(trailer []byte) {
	if s.state.Swap(1) == 1 {
		<-s.done
		return
	}
	s.conn.Write(trailer)
	close(s.done)
}

type flushedAttempt struct {
	mu     sync.Mutex
	stream *flushedStream
}

func (a *flushedAttempt) End(trailer []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stream.finish(trailer) // want `a.mu held across call of \(\*flushedStream\).finish, which blocks: \(\*flushedStream\).finish -> net.Conn.Write \(locked at closers.go:102, released by defer\)`
}
