package precision

import (
	"net"
	"sync"
)

// session handles requests; on some errors it escalates down to a redial,
// seven calls below the handler.
type session struct {
	mu    sync.Mutex
	addr  string
	conn  net.Conn
	fails int
	queue [][]byte
}

func (s *session) respond(b []byte) { s.writeErr(b) }
func (s *session) writeErr(b []byte) {
	if len(b) == 0 {
		s.flushErr()
	}
	s.queue = append(s.queue, b)
}
func (s *session) flushErr() {
	if s.fails > 3 {
		s.closeOnErr()
	}
}
func (s *session) closeOnErr()   { s.reconnect() }
func (s *session) reconnect()    { s.redial() }
func (s *session) redial()       { s.dialLocked() }
func (s *session) dialLocked()   { s.conn, _ = net.Dial("tcp", s.addr) }
func (s *session) handshake()    { s.conn, _ = net.Dial("tcp", s.addr) }
func (s *session) ensureConn()   { s.handshake() }
func (s *session) resetLocked()  { s.fails = 0; s.ensureConn() }
func (s *session) acceptLocked() { s.fails++ }

// HandleHeld answers under the lock: the redial is seven calls down, past
// conditions on the session's state, so it is only plausible.
func (s *session) HandleHeld(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acceptLocked()
	s.respond(b) // want `s.mu held across call of \(\*session\).respond, which blocks: \(\*session\).respond -> \(\*session\).writeErr -> \(\*session\).flushErr -> \(\*session\).closeOnErr -> \(\*session\).reconnect -> \(\*session\).redial -> \(\*session\).dialLocked -> net.Dial \(locked at depth.go:42, released by defer\) \(plausible: the operation is more than 6 calls down, past conditions not decided here\)`
}

// ResetHeld dials three calls down: a proven finding.
func (s *session) ResetHeld() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resetLocked() // want `s.mu held across call of \(\*session\).resetLocked, which blocks: \(\*session\).resetLocked -> \(\*session\).ensureConn -> \(\*session\).handshake -> net.Dial \(locked at depth.go:50, released by defer\)`
}

// Reset is its twin: it dials before taking the lock to store the conn.
func (s *session) Reset() {
	conn, _ := net.Dial("tcp", s.addr)
	s.mu.Lock()
	s.fails, s.conn = 0, conn
	s.mu.Unlock()
}

// Hooks are the session's users' callbacks.
type Hooks struct {
	OnRespond func(b []byte)
}

// hookedSession tells its user's hook about every response, then maybe
// escalates to the redial far below.
type hookedSession struct {
	session
	hooks Hooks
}

func (h *hookedSession) respondAndNotify(b []byte) {
	h.hooks.OnRespond(b)
	h.respond(b)
}

// NewHookedSession takes the user's hooks.
func NewHookedSession(addr string, hooks Hooks) *hookedSession {
	return &hookedSession{session: session{addr: addr}, hooks: hooks}
}

// HandleNotify runs the user's hook under the lock: that is proven, and
// the redial seven calls down, only plausible, does not hide it.
func (h *hookedSession) HandleNotify(b []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.respondAndNotify(b) // want `h.session.mu held across call of \(\*hookedSession\).respondAndNotify, which calls func value h.hooks.OnRespond \(\(\*hookedSession\).respondAndNotify -> func value h.hooks.OnRespond\) \(locked at depth.go:88, released by defer\)`
}

// HandleNotifyUnlocked is its twin: it runs the hook and responds after
// the lock.
func (h *hookedSession) HandleNotifyUnlocked(b []byte) {
	h.mu.Lock()
	h.acceptLocked()
	h.mu.Unlock()
	h.respondAndNotify(b)
}
