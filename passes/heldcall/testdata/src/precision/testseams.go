package precision

import (
	"net"
	"sync"
)

// dbClient is a connection to the database a differ compares.
type dbClient interface {
	Query(q string) error
}

// sqlConn is the production client.
type sqlConn struct{ c net.Conn }

func (c *sqlConn) Query(q string) error { _, err := c.c.Write([]byte(q)); return err }

// differ retries table diffs; its client factory is set when the tablet's
// database config arrives, or by tests through NewTestDiffer.
type differ struct {
	mu        sync.Mutex
	newClient func() dbClient
	pending   []string
}

// NewTestDiffer makes a differ for tests, with their fake client factory.
func NewTestDiffer(newClient func() dbClient) *differ {
	return &differ{newClient: newClient}
}

// NewDiffer makes a differ.
func NewDiffer() *differ { return &differ{} }

// InitDB installs the production factory.
func (d *differ) InitDB(addr string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.newClient = func() dbClient { return &sqlConn{} }
}

// retry makes a client under the lock. The factory is the package's own
// closure; the only other one comes through the constructor for tests.
// Not a finding at warning level.
func (d *differ) retry() dbClient {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.newClient() // want `d.mu held across call of func value d.newClient .*\(plausible: .*NewTestDiffer, test-support code.*\)`
}

// Retry runs retry.
func (d *differ) Retry() dbClient { return d.retry() }

// replayer is its twin: its exported constructor takes the factory from
// the package's users, whose code then runs under the lock.
type replayer struct {
	mu        sync.Mutex
	newClient func() dbClient
}

// NewReplayer makes a replayer with the caller's client factory.
func NewReplayer(newClient func() dbClient) *replayer {
	return &replayer{newClient: newClient}
}

// Client makes a client under the lock.
func (r *replayer) Client() dbClient {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.newClient() // want `r.mu held across call of func value r.newClient`
}
