package precision

import (
	"errors"
	"sync"
)

// An RPC client keeps a handler per stream; each handler reports the
// stream's first response on a send-only channel its caller made with
// room for it. Closing the client cleans every handler up under the
// client's lock, which sends the close error into that slot: a buffered
// hand-off, whatever the field's direction. The twin's slot is made
// without room, so the cleanup waits for a caller that may be gone.

type streamHandler struct {
	init   bool
	initCh chan<- error
}

func (h *streamHandler) cleanup() {
	if !h.init {
		h.init = true
		h.initCh <- errors.New("stream closed")
	}
}

type RPCClient struct {
	mu       sync.Mutex
	handlers map[uint64]*streamHandler
}

func (c *RPCClient) Stream(seq uint64) error {
	initCh := make(chan error, 1)
	c.mu.Lock()
	c.handlers[seq] = &streamHandler{initCh: initCh}
	c.mu.Unlock()
	return <-initCh
}

// Close cleans up under the lock. Not a finding.
func (c *RPCClient) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.handlers {
		h.cleanup()
	}
}

type syncHandler struct {
	init   bool
	initCh chan<- error
}

func (h *syncHandler) cleanup() {
	if !h.init {
		h.init = true
		h.initCh <- errors.New("stream closed")
	}
}

type SyncRPCClient struct {
	mu       sync.Mutex
	handlers map[uint64]*syncHandler
}

func (c *SyncRPCClient) Stream(seq uint64) error {
	initCh := make(chan error)
	c.mu.Lock()
	c.handlers[seq] = &syncHandler{initCh: initCh}
	c.mu.Unlock()
	return <-initCh
}

func (c *SyncRPCClient) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.handlers {
		h.cleanup() // want `c.mu held across call of \(\*syncHandler\).cleanup, which blocks: \(\*syncHandler\).cleanup -> channel send`
	}
}
