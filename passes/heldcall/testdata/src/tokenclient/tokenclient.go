// Package tokenclient exchanges credentials for access tokens over HTTP.
// Its requests go through an unexported doer, which only the package
// sets: an HTTP client in the program, a fake that only its tests import.
package tokenclient

import (
	"net"
	"sync"
)

type doer interface {
	Do(req []byte) ([]byte, error)
}

// pipeDoer hands a request to the connection's writer loop and waits for
// the reader loop's reply.
type pipeDoer struct {
	reqs  chan []byte
	resps chan []byte
}

func (d *pipeDoer) Do(req []byte) ([]byte, error) { return d.roundTrip(req) }

func (d *pipeDoer) roundTrip(req []byte) ([]byte, error) {
	d.reqs <- req
	return <-d.resps, nil
}

func newPipeDoer(conn net.Conn) *pipeDoer {
	d := &pipeDoer{reqs: make(chan []byte), resps: make(chan []byte)}
	go func() {
		for req := range d.reqs {
			conn.Write(req)
		}
	}()
	go func() {
		buf := make([]byte, 512)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			d.resps <- buf[:n]
		}
	}()
	return d
}

// exchange sends one token request through client.
func exchange(client doer, grant string) ([]byte, error) {
	return client.Do([]byte("grant=" + grant))
}

type Credentials struct {
	mu     sync.Mutex
	client doer
	token  []byte
}

func New(conn net.Conn) *Credentials { return &Credentials{client: newPipeDoer(conn)} }

// Token refreshes the token under the lock: every RPC's metadata waits for
// the exchange. The finding names the program's doer, not the tests' fake.
func (c *Credentials) Token() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tok, err := exchange(c.client, "token") // want `c.mu held across call of exchange, which blocks: exchange -> \(\*pipeDoer\).Do -> \(\*pipeDoer\).roundTrip -> channel send \(locked at tokenclient.go:\d+, released by defer\)`
	if err == nil {
		c.token = tok
	}
	return tok, err
}

// TokenUnlocked exchanges first and stores the token under the lock.
func (c *Credentials) TokenUnlocked() ([]byte, error) {
	tok, err := exchange(c.client, "token")
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.token = tok
	c.mu.Unlock()
	return tok, nil
}
