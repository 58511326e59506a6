package leaks

import (
	"context"
	"errors"
	"sync"
)

// Acquirers take a lock for their caller and say whether they did: a nil
// error hands the caller the lock, to release when done; an error means
// there is nothing to release. A return that keeps the lock and reports an
// error leaks it: the caller, told it failed, never unlocks.

var errClientClosed = errors.New("client closed")

type rpcClient struct {
	mu        sync.RWMutex
	closed    bool
	conn      string
	reconnect chan struct{}
}

type remoteKV struct{ client *rpcClient }

// connect returns with r.client.mu read-locked on success; the caller must
// call done.
func (r *remoteKV) connect(ctx context.Context) error {
	for {
		r.client.mu.RLock()
		if r.client.closed {
			return errClientClosed // want `return with r.client.mu held, but other paths of connect release it \(locked at acquirers.go:\d+\): the next Lock of it waits forever`
		}
		if r.client.conn != "" {
			return nil
		}
		r.client.mu.RUnlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-r.client.reconnect:
		}
	}
}

// connectChecked returns with r.client.mu read-locked on success; the
// caller must call done.
func (r *remoteKV) connectChecked(ctx context.Context) error {
	for {
		r.client.mu.RLock()
		if r.client.closed {
			r.client.mu.RUnlock()
			return errClientClosed
		}
		if r.client.conn != "" {
			return nil
		}
		r.client.mu.RUnlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-r.client.reconnect:
		}
	}
}

func (r *remoteKV) done() { r.client.mu.RUnlock() }

// A slot pool hands out one of its slots under the slot's lock.
type slot struct {
	mu    sync.Mutex
	inUse bool
}

var errNoSlot = errors.New("no free slot")

// acquireSlot locks and returns slot i when it is free.
func acquireSlot(slots []*slot, i int) (*slot, error) {
	s := slots[i]
	s.mu.Lock()
	if s.inUse {
		return nil, errNoSlot // want `return with slots\[i\].mu held, but other paths of acquireSlot release it \(locked at acquirers.go:\d+\): the next Lock of it waits forever`
	}
	if i%2 == 0 {
		s.mu.Unlock()
		return nil, unavailable(i)
	}
	s.inUse = true
	return s, nil
}

// acquireFreeSlot is acquireSlot with the busy slot unlocked.
func acquireFreeSlot(slots []*slot, i int) (*slot, error) {
	s := slots[i]
	s.mu.Lock()
	if s.inUse {
		s.mu.Unlock()
		return nil, errNoSlot
	}
	if i%2 == 0 {
		s.mu.Unlock()
		return nil, unavailable(i)
	}
	s.inUse = true
	return s, nil
}

func unavailable(i int) error {
	if i < 0 {
		return nil
	}
	return errNoSlot
}
