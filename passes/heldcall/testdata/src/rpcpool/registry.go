// Package rpcpool keeps client connections to backends, dialled under
// the registry's lock with options of rpcdial, which waits for a
// connection only when an option asks it to.
package rpcpool

import (
	"context"
	"sync"
	"time"

	"rpcpool/rpcdial"
)

func audit(ctx context.Context, method string, req any) error { return nil }

type Registry struct {
	mu       sync.Mutex
	conns    map[string]*rpcdial.Conn
	timeout  time.Duration
	defaults []rpcdial.DialOption
	configs  chan rpcdial.Config
}

// Connect dials without WithBlock: Dial returns at once.
func (r *Registry) Connect(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, rpcdial.WithInsecure(), rpcdial.WithTimeout(time.Second), rpcdial.WithInterceptor(audit))
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// ConnectBlocking asks Dial to wait for the connection, with the lock
// held.
func (r *Registry) ConnectBlocking(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, rpcdial.WithInsecure(), rpcdial.WithBlock()) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectOptions builds its options in a list, one of them only when a
// timeout is set: none asks Dial to wait.
func (r *Registry) connectOptions(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	opts := []rpcdial.DialOption{rpcdial.WithInsecure()}
	if r.timeout > 0 {
		opts = append(opts, rpcdial.WithTimeout(r.timeout))
	}
	c, err := rpcdial.Dial(ctx, target, opts...)
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectBlockingOptions adds WithBlock to the list on one branch.
func (r *Registry) connectBlockingOptions(ctx context.Context, target string, wait bool) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	opts := []rpcdial.DialOption{rpcdial.WithInsecure()}
	if wait {
		opts = append(opts, rpcdial.WithBlock())
	}
	c, err := rpcdial.Dial(ctx, target, opts...) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// ConnectWith passes on the options its callers give: one may be
// WithBlock.
func (r *Registry) ConnectWith(ctx context.Context, target string, opts ...rpcdial.DialOption) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, opts...) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectDefaults dials with options kept in a field: which ones is not
// known here.
func (r *Registry) connectDefaults(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, r.defaults...) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectCombined hides WithBlock inside a combined option.
func (r *Registry) connectCombined(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, rpcdial.WithOptions(rpcdial.WithInsecure(), rpcdial.WithBlock())) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectLazy takes its options from a func: it may return WithBlock.
func (r *Registry) connectLazy(ctx context.Context, target string, pick func() rpcdial.DialOption) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, rpcdial.WithLazy(pick)) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectConfigured waits for the first service configuration.
func (r *Registry) connectConfigured(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := rpcdial.Dial(ctx, target, rpcdial.WithInsecure(), rpcdial.WithConfigs(r.configs)) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// Remove closes a live connection under the lock: its goroutine may be
// in the middle of connecting.
func (r *Registry) Remove(target string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.conns[target]; c != nil {
		c.Close() // want `r.mu held across call of rpcdial.\(\*Conn\).Close, which blocks: rpcdial.\(\*Conn\).Close -> channel receive \(locked`
		delete(r.conns, target)
	}
}

// Redial replaces a connection and, when the new one fails, closes the
// old one it took from the map: a connection other callers have used,
// whose goroutine may be connecting, closed with the lock held.
func (r *Registry) Redial(ctx context.Context, target string) (c *rpcdial.Conn, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.conns[target]
	defer func() { // want `r.mu held across deferred call of \(\*Registry\).Redial.func1, which blocks: \(\*Registry\).Redial.func1 -> rpcdial.\(\*Conn\).Close -> channel receive \(locked`
		if err != nil && old != nil {
			old.Close()
		}
	}()
	c, err = rpcdial.Dial(ctx, target, rpcdial.WithInsecure())
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

// connectArray keeps its options in an array that a helper fills through
// another slice of it: the helper adds WithBlock.
func (r *Registry) connectArray(ctx context.Context, target string) (*rpcdial.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var opts [2]rpcdial.DialOption
	opts[0] = rpcdial.WithInsecure()
	waitFor(opts[1:])
	c, err := rpcdial.Dial(ctx, target, opts[:]...) // want `r.mu held across call of rpcdial.Dial, which blocks: rpcdial.Dial -> select \(locked`
	if err != nil {
		return nil, err
	}
	r.conns[target] = c
	return c, nil
}

func waitFor(dst []rpcdial.DialOption) { dst[0] = rpcdial.WithBlock() }
