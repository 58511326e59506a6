package membership

import "sync"

// Client talks to a cluster's endpoints; its lock guards the endpoint
// list.
type Client struct {
	mu        sync.RWMutex
	endpoints []string
}

// Endpoints read-locks the client.
func (c *Client) Endpoints() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]string(nil), c.endpoints...)
}

// membersAPI asks the cluster about its members through a client.
type membersAPI struct {
	client *Client
}

// Leader picks the first endpoint the client knows.
func (m *membersAPI) Leader() string {
	eps := m.client.Endpoints()
	if len(eps) == 0 {
		return ""
	}
	return eps[0]
}

// SyncHeld refreshes the endpoints while holding c.mu, through a members
// API built around c itself: Leader read-locks c.mu again.
func (c *Client) SyncHeld() {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := &membersAPI{client: c}
	leader := m.Leader() // want `c.mu read-locked through call of \(\*membersAPI\).Leader while held \(locked at wrapper.go:36\)`
	c.endpoints = []string{leader}
}

// Sync is its twin: it asks for the leader before it locks.
func (c *Client) Sync() {
	m := &membersAPI{client: c}
	leader := m.Leader()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endpoints = []string{leader}
}
