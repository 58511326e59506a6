// Package profiledial keeps a set of dial options as a Profile and
// copies it whole into a dial's configuration: a profile made with
// WithBlock sets the flag without any option of the dial setting it.
package profiledial

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

// A Profile is a set of options made once.
type Profile struct{ opts options }

// NewProfile applies opts to a new profile.
func NewProfile(opts ...Option) *Profile {
	p := &Profile{}
	for _, o := range opts {
		o.apply(&p.opts)
	}
	return p
}

// WithProfile applies a profile's options.
func WithProfile(p *Profile) Option { return funcOpt(func(o *options) { *o = p.opts }) }

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
