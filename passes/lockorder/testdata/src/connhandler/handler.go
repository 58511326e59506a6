// want package:"2 lock-order edges"

// Package connhandler serves requests on pooled connections. Holding a
// connection, it asks the pool for its stats: the connection's lock, then
// the pool's, the opposite of the pool's Close. The handler's connection
// and pool hang off one handler, as the pool's connections hang off the
// pool, so the cycle is a warning; a connection handed in by the caller
// is tied to the handler's pool only by class, so that cycle is a note.
package connhandler

import "connpool"

// Handler serves one connection.
type Handler struct {
	pool *connpool.Pool
	conn *connpool.Conn
}

// ServeHeld asks for the pool's stats while holding the connection.
func (h *Handler) ServeHeld() int {
	h.conn.Lock()
	defer h.conn.Unlock()
	return h.pool.Opens() // want `h.pool.mu locked through call of connpool.\(\*Pool\).Opens while holding h.conn.mu \(locked at handler.go:21\); package connpool pool.go:34 takes \(\*connpool.Conn\).mu while holding \(\*connpool.Pool\).mu: lock-order inversion across packages`
}

// Serve is its twin: it asks before taking the connection.
func (h *Handler) Serve() int {
	opens := h.pool.Opens()
	h.conn.Lock()
	defer h.conn.Unlock()
	return opens
}

// RelayHeld asks the handler's pool for its stats while holding a
// connection the caller hands in, which may belong to another pool.
func (h *Handler) RelayHeld(c *connpool.Conn) int {
	c.Lock()
	defer c.Unlock()
	return h.pool.Opens() // want `h.pool.mu locked through call of connpool.\(\*Pool\).Opens while holding c.mu \(locked at handler.go:37\); package connpool pool.go:34 takes \(\*connpool.Conn\).mu while holding \(\*connpool.Pool\).mu: lock-order inversion across packages \(plausible: the cycle is proven only between the lock classes \(\*connpool.Conn\).mu and \(\*connpool.Pool\).mu\)`
}

// Relay is its twin: it asks before taking the connection.
func (h *Handler) Relay(c *connpool.Conn) int {
	opens := h.pool.Opens()
	c.Lock()
	defer c.Unlock()
	return opens
}
