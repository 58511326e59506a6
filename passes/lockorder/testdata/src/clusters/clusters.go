// want package:"3 lock-order edges"

// Package clusters holds lock-order cycles between a server's lock and its
// clients' locks: proven when the instances are tied to each other (the
// client and its own server: a warning), plausible when the cycle is known
// only between the classes (a client and another client's server: a note).
package clusters

import "sync"

type Server struct {
	mu      sync.Mutex
	clients int
}

type Client struct {
	mu   sync.Mutex
	srv  *Server
	subs map[string]bool
}

// Register takes the server's lock, then the client's.
func (c *Client) Register() {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	c.srv.clients++
	c.mu.Lock() // want `c.mu locked while holding c.srv.mu \(locked at clusters.go:24\); the opposite order is taken at clusters.go:37: lock-order inversion`
	c.subs = map[string]bool{}
	c.mu.Unlock()
}

// CloseHeld takes the client's lock, then its own server's: with Register
// on the same client, two goroutines deadlock.
func (c *Client) CloseHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.srv.mu.Lock() // want `c.srv.mu locked while holding c.mu \(locked at clusters.go:35\); the opposite order is taken at clusters.go:27: lock-order inversion`
	c.srv.clients--
	c.srv.mu.Unlock()
}

// Close is its twin: it releases the client's lock first.
func (c *Client) Close() {
	c.mu.Lock()
	c.subs = nil
	c.mu.Unlock()
	c.srv.mu.Lock()
	c.srv.clients--
	c.srv.mu.Unlock()
}

// ForwardHeld takes this client's lock, then another client's server's:
// the classes meet in the reverse order of Register, but nothing ties the
// peer's server to this client.
func (c *Client) ForwardHeld(peer *Client, subject string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	peer.srv.mu.Lock() // want `peer.srv.mu locked while holding c.mu \(locked at clusters.go:56\); the opposite order takes c.mu while holding c.srv.mu at clusters.go:27: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*clusters.Client\).mu and \(\*clusters.Server\).mu\)`
	c.subs[subject] = true
	peer.srv.mu.Unlock()
}

// Forward is its twin: it reads the subscription under its own lock and
// releases it before taking the peer's server's.
func (c *Client) Forward(peer *Client, subject string) {
	c.mu.Lock()
	c.subs[subject] = true
	c.mu.Unlock()
	peer.srv.mu.Lock()
	peer.srv.clients++
	peer.srv.mu.Unlock()
}
