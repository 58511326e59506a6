// Package funcdial has options that are plain funcs over the
// configuration, and a combinator of such funcs.
package funcdial

import (
	"context"
	"net"
)

type options struct {
	block   bool
	tracing bool
}

// An Option configures a dial.
type Option func(*options)

// WithBlock makes Dial wait for the connection.
func WithBlock() Option { return func(o *options) { o.block = true } }

// WithTracing traces the dial.
func WithTracing() Option { return func(o *options) { o.tracing = true } }

// Combine applies several option funcs as one.
func Combine(fs ...func(*options)) Option {
	return func(o *options) {
		for _, f := range fs {
			f(o)
		}
	}
}

// Conn is a connection made in the background.
type Conn struct {
	opts  options
	ready chan struct{}
	nc    net.Conn
}

// Dial connects to addr; it waits for the connection under WithBlock.
func Dial(ctx context.Context, addr string, opts ...Option) (*Conn, error) {
	c := &Conn{ready: make(chan struct{})}
	for _, o := range opts {
		o(&c.opts)
	}
	go func() {
		if nc, err := net.Dial("tcp", addr); err == nil {
			c.nc = nc
			close(c.ready)
		}
	}()
	if !c.opts.block {
		return c, nil
	}
	select {
	case <-c.ready:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
