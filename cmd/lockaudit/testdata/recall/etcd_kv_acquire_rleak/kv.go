// Models etcd#5509 (GoKer etcd_5509): clientv3's remoteClient.acquire
// read-locks the Client's mutex (r.client.mu) at the top of its retry loop and
// by design returns holding it on success (release() drops it after the RPC).
// On the failure path for a closed client it returns ErrConnClosed without
// RUnlock, so the read lock of the other object leaks out of the loop; the next
// Client.Close (write lock) blocks forever, and with it every reader queued
// behind it (read-lock leak on an early return inside a for loop, the lock
// reached through a field of another type).
package etcd_kv_acquire_rleak

import (
	"context"
	"errors"
	"sync"
)

// ErrConnClosed is returned by operations on a closed client.
var ErrConnClosed = errors.New("clientv3: connection closed")

// grpcConn stands for the client's gRPC connection.
type grpcConn struct {
	target string
	closed bool
}

// Client is the etcd v3 client.
type Client struct {
	mu     sync.RWMutex
	conn   *grpcConn
	ctx    context.Context
	cancel context.CancelFunc
	// reconnc is closed when a new connection is installed.
	reconnc chan struct{}
}

// New returns a connected client.
func New(target string) *Client {
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{conn: &grpcConn{target: target}, ctx: ctx, cancel: cancel, reconnc: make(chan struct{})}
}

// Close shuts the client down. It waits for in-flight requests, which hold
// the read lock.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel == nil {
		return nil
	}
	c.cancel()
	c.cancel = nil
	c.conn.closed = true
	return nil
}

// remoteClient tracks the connection a KV last used.
type remoteClient struct {
	client *Client
	mu     sync.Mutex
	conn   *grpcConn
}

// acquire returns with r.client.mu read-locked on success; the caller must
// call release. Buggy version.
func (r *remoteClient) acquire(ctx context.Context) error {
	for {
		r.client.mu.RLock()
		closed := r.client.cancel == nil
		c := r.client.conn
		reconnc := r.client.reconnc
		r.mu.Lock()
		match := r.conn == c
		r.mu.Unlock()
		if closed {
			return ErrConnClosed // BUG: returns with r.client.mu still read-locked
		}
		if match {
			return nil
		}
		r.client.mu.RUnlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-reconnc:
		}
		r.mu.Lock()
		r.conn = c
		r.mu.Unlock()
	}
}

func (r *remoteClient) release() { r.client.mu.RUnlock() }

// KV is the key-value API.
type KV interface {
	Get(ctx context.Context, key string) (string, error)
}

type kv struct {
	rc *remoteClient
}

// NewKV returns a KV on c.
func NewKV(c *Client) KV { return &kv{rc: &remoteClient{client: c, conn: c.conn}} }

func (kv *kv) Get(ctx context.Context, key string) (string, error) {
	if err := kv.rc.acquire(ctx); err != nil {
		return "", err
	}
	defer kv.rc.release()
	return "value-of-" + key, nil
}

// remoteClientFixed is the fixed version: every path that does not hand the
// read lock to the caller drops it.
type remoteClientFixed struct {
	client *Client
	mu     sync.Mutex
	conn   *grpcConn
}

func (r *remoteClientFixed) acquire(ctx context.Context) error {
	for {
		r.client.mu.RLock()
		closed := r.client.cancel == nil
		c := r.client.conn
		reconnc := r.client.reconnc
		r.mu.Lock()
		match := r.conn == c
		r.mu.Unlock()
		if closed {
			r.client.mu.RUnlock()
			return ErrConnClosed
		}
		if match {
			return nil
		}
		r.client.mu.RUnlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-reconnc:
		}
		r.mu.Lock()
		r.conn = c
		r.mu.Unlock()
	}
}

func (r *remoteClientFixed) release() { r.client.mu.RUnlock() }

type kvFixed struct {
	rc *remoteClientFixed
}

// NewKVFixed returns a KV on c.
func NewKVFixed(c *Client) KV { return &kvFixed{rc: &remoteClientFixed{client: c, conn: c.conn}} }

func (kv *kvFixed) Get(ctx context.Context, key string) (string, error) {
	if err := kv.rc.acquire(ctx); err != nil {
		return "", err
	}
	defer kv.rc.release()
	return "value-of-" + key, nil
}
