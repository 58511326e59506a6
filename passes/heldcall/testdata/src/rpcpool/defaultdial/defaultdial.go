// Package defaultdial applies process-wide default options, which an
// exported function installs into a package variable, before a dial's
// own.
package defaultdial

import (
	"context"
	"net"
)

type options struct {
	block   bool
	tracing bool
}

// An Option configures a dial.
type Option interface{ apply(*options) }

type funcOpt func(*options)

func (f funcOpt) apply(o *options) { f(o) }

// WithBlock makes Dial wait for the connection.
func WithBlock() Option { return funcOpt(func(o *options) { o.block = true }) }

// WithTracing traces the dial.
func WithTracing() Option { return funcOpt(func(o *options) { o.tracing = true }) }

var defaults struct {
	opts [4]Option
	n    int
}

// AddDefault installs an option every dial applies first.
func AddDefault(opt Option) {
	defaults.opts[defaults.n] = opt
	defaults.n++
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
	for _, o := range defaults.opts[:defaults.n] {
		o.apply(&c.opts)
	}
	for _, o := range opts {
		o.apply(&c.opts)
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
