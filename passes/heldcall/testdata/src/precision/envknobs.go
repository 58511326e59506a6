package precision

import (
	"crypto/tls"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A relay client dials under its connection lock. Its TLS config opens a
// key log only when SSLKEYLOGFILE names one, a switch for debugging with
// Wireshark; it dumps its state only when RELAY_DEBUG_DIR is set. Those
// steps do not run in the program as normally run: notes. The dial, the
// client's state file and an unconditional key log stay warnings.

// tlsConfig opens the key log only when the environment names one.
func tlsConfig(host string) *tls.Config {
	conf := &tls.Config{ServerName: host}
	if n := os.Getenv("SSLKEYLOGFILE"); n != "" {
		f, err := os.OpenFile(n, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err == nil {
			conf.KeyLogWriter = f
		}
	}
	return conf
}

// tlsConfigLogged opens its key log at a path from its caller, always.
func tlsConfigLogged(host, keyLog string) *tls.Config {
	conf := &tls.Config{ServerName: host}
	if f, err := os.OpenFile(keyLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		conf.KeyLogWriter = f
	}
	return conf
}

type RelayClient struct {
	mu      sync.Mutex
	host    string
	keyLog  string
	conf    *tls.Config
	dials   int
	lastErr error
}

// Prepare builds the TLS config under the lock. Not a warning: the key
// log is opened only when the environment asks for one.
func (c *RelayClient) Prepare() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conf = tlsConfig(c.host) // want `c.mu held across call of tlsConfig, which blocks: tlsConfig -> os.OpenFile .* \(plausible: only when the environment sets SSLKEYLOGFILE\)`
}

// PrepareLogged always opens the key log under the lock.
func (c *RelayClient) PrepareLogged() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conf = tlsConfigLogged(c.host, c.keyLog) // want `c.mu held across call of tlsConfigLogged, which blocks: tlsConfigLogged -> os.OpenFile \(locked at envknobs.go:\d+, released by defer\)$`
}

// DumpState writes the client's state under the lock only when the
// environment names a debug directory: a note.
func (c *RelayClient) DumpState() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dir, ok := os.LookupEnv("RELAY_DEBUG_DIR"); ok {
		os.WriteFile(filepath.Join(dir, "relay.state"), []byte(c.host), 0o600) // want `c.mu held across call of os.WriteFile .*\(plausible: only when the environment sets RELAY_DEBUG_DIR\)`
	}
}

// Dial dials under the lock whatever the environment says; the debug
// switch only adds a pause. Both are warnings: the dial is not gated, and
// a variable that is unset (== "") gates nothing.
func (c *RelayClient) Dial() (net.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if os.Getenv("RELAY_NO_DELAY") == "" {
		time.Sleep(10 * time.Millisecond) // want `c.mu held across call of time.Sleep \(locked at envknobs.go:\d+, released by defer\)$`
	}
	c.dials++
	conn, err := tls.Dial("tcp", c.host, c.conf) // want `c.mu held across call of tls.Dial`
	c.lastErr = err
	return conn, err
}
