package leaks

import (
	"errors"
	"sync"
)

// A broker connection multiplexes requests over one socket. Callers take
// turns at the socket: the one whose correlation id is next reads the
// response body.

type brokerConn struct {
	rlock   sync.Mutex
	next    int32
	pending int32
	broken  bool
}

var errNoProgress = errors.New("no progress")

func (c *brokerConn) peek() error {
	if c.broken {
		return errNoProgress
	}
	return nil
}

// waitResponse hands over the read lock when the response is the caller's:
// the lock it returns is the one it keeps.
func (c *brokerConn) waitResponse(id int32) (size int, lock *sync.Mutex, err error) {
	for {
		c.rlock.Lock()
		if err = c.peek(); err != nil {
			c.rlock.Unlock()
			break
		}
		if c.next == id {
			size, lock = int(c.pending), &c.rlock
			break
		}
		c.rlock.Unlock()
	}
	c.pending--
	return
}

// waitResponseKeeping returns on the caller's response with the read lock
// still taken, and nothing in its results or name says so.
func (c *brokerConn) waitResponseKeeping(id int32) int {
	for {
		c.rlock.Lock()
		if c.broken {
			c.rlock.Unlock()
			return -1
		}
		if c.next == id {
			return int(c.pending) // want `return with c.rlock held, but other paths of waitResponseKeeping release it \(locked at handover.go:51\): the next Lock of it waits forever`
		}
		c.rlock.Unlock()
	}
}
