// want package:"1 lock-order edges"

// Package connhandler serves requests on pooled connections. Holding a
// connection, it asks the pool for its stats: the connection's lock, then
// the pool's, the opposite of the pool's Close.
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
	return h.pool.Opens() // want `h.pool.mu locked through call of connpool.\(\*Pool\).Opens while holding h.conn.mu \(locked at handler.go:18\); package connpool pool.go:34 takes \(\*connpool.Conn\).mu while holding \(\*connpool.Pool\).mu: lock-order inversion across packages \(plausible: .*\)`
}

// Serve is its twin: it asks before taking the connection.
func (h *Handler) Serve() int {
	opens := h.pool.Opens()
	h.conn.Lock()
	defer h.conn.Unlock()
	return opens
}
