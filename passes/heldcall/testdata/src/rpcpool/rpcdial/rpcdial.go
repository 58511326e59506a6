// Package rpcdial is a client library with functional dial options, in
// the shape of gRPC's: Dial returns at once unless WithBlock asks it to
// wait for the connection, or WithConfigs hands it a channel of service
// configurations to wait on.
package rpcdial

import (
	"context"
	"errors"
	"net"
	"time"
)

// Config is a service configuration.
type Config struct{ LoadBalancing string }

type dialOptions struct {
	block    bool
	insecure bool
	timeout  time.Duration
	configs  <-chan Config

	interceptor Interceptor
}

// A DialOption configures a dial.
type DialOption interface{ apply(*dialOptions) }

type funcOption struct{ f func(*dialOptions) }

func (o *funcOption) apply(d *dialOptions) { o.f(d) }

func newFuncOption(f func(*dialOptions)) *funcOption { return &funcOption{f: f} }

// WithBlock makes Dial wait until the connection is up.
func WithBlock() DialOption {
	return newFuncOption(func(o *dialOptions) { o.block = true })
}

// WithInsecure turns transport security off.
func WithInsecure() DialOption {
	return newFuncOption(func(o *dialOptions) { o.insecure = true })
}

// WithTimeout bounds a blocking dial.
func WithTimeout(d time.Duration) DialOption {
	return newFuncOption(func(o *dialOptions) { o.timeout = d })
}

// WithConfigs makes Dial wait for the first service configuration.
func WithConfigs(c <-chan Config) DialOption {
	return newFuncOption(func(o *dialOptions) { o.configs = c })
}

// An Interceptor sees each request before it is sent.
type Interceptor func(ctx context.Context, method string, req any) error

// WithInterceptor installs an interceptor.
func WithInterceptor(f Interceptor) DialOption {
	return newFuncOption(func(o *dialOptions) { o.interceptor = f })
}

// WithLazy applies the option f returns, when the dial starts.
func WithLazy(f func() DialOption) DialOption {
	return newFuncOption(func(o *dialOptions) { f().apply(o) })
}

// WithOptions applies several options as one.
func WithOptions(opts ...DialOption) DialOption {
	return newFuncOption(func(o *dialOptions) {
		for _, opt := range opts {
			opt.apply(o)
		}
	})
}

// Conn is a client connection, connected in the background.
type Conn struct {
	target  string
	opts    dialOptions
	cfg     Config
	ready   chan struct{}
	closing chan struct{}
	done    chan struct{}
	nc      net.Conn
}

var errNoTarget = errors.New("rpcdial: no target")

// NewConn makes a connection that connects in the background.
func NewConn(target string, opts ...DialOption) (*Conn, error) {
	if target == "" {
		return nil, errNoTarget
	}
	c := &Conn{target: target, ready: make(chan struct{}), closing: make(chan struct{}), done: make(chan struct{})}
	for _, opt := range opts {
		opt.apply(&c.opts)
	}
	go c.connect()
	return c, nil
}

func (c *Conn) connect() {
	defer close(c.done)
	nc, err := net.Dial("tcp", c.target)
	if err != nil {
		return
	}
	c.nc = nc
	close(c.ready)
	<-c.closing
	nc.Close()
}

func (c *Conn) resolve() error {
	if _, _, err := net.SplitHostPort(c.target); err != nil {
		return err
	}
	return nil
}

// Dial makes a connection; with WithBlock it waits for it to be up.
func Dial(ctx context.Context, target string, opts ...DialOption) (conn *Conn, err error) {
	opts = append([]DialOption{WithTimeout(20 * time.Second)}, opts...)
	c, err := NewConn(target, opts...)
	if err != nil {
		return nil, err
	}
	if err = c.resolve(); err != nil {
		c.abandon()
		return nil, err
	}
	if c.opts.configs != nil {
		select {
		case cfg := <-c.opts.configs:
			c.cfg = cfg
		case <-ctx.Done():
			c.abandon()
			return nil, ctx.Err()
		}
	}
	if !c.opts.block {
		return c, nil
	}
	select {
	case <-c.ready:
		return c, nil
	case <-ctx.Done():
		c.abandon()
		return nil, ctx.Err()
	}
}

// abandon stops the connection without waiting for its goroutine.
func (c *Conn) abandon() { close(c.closing) }

// Close stops the connection and waits for its goroutine.
func (c *Conn) Close() error {
	close(c.closing)
	<-c.done
	return nil
}

// A Pool hands out connections to one target.
type Pool struct {
	target string
	conns  []*Conn
}

// Get adds a connection to the pool; when it cannot be resolved, it is
// closed again, waiting for its goroutine.
func (p *Pool) Get() (_ *Conn, err error) {
	c, err := NewConn(p.target)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	if err = c.resolve(); err != nil {
		return nil, err
	}
	p.conns = append(p.conns, c)
	return c, nil
}

// Replace makes a connection to old's target, closed again, waiting for
// its goroutine, when it cannot be resolved.
func Replace(old *Conn) (_ *Conn, err error) {
	c, err := NewConn(old.target)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	if err = c.resolve(); err != nil {
		return nil, err
	}
	return c, nil
}
