// Package presetdial bundles options into presets, applied through an
// interface handed the configuration, and lets Open's caller adjust the
// configuration with a func: both can apply WithWait.
package presetdial

import (
	"net"
	"time"
)

// Config is a dial's configuration; its wait flag is the package's.
type Config struct {
	Timeout time.Duration
	wait    bool
}

// An Option configures a dial; callers may apply it themselves.
type Option interface{ Apply(*Config) }

type optFunc func(*Config)

func (f optFunc) Apply(c *Config) { f(c) }

// WithWait makes Open wait for the connection.
func WithWait() Option { return optFunc(func(c *Config) { c.wait = true }) }

// WithTimeout bounds the dial.
func WithTimeout(d time.Duration) Option { return optFunc(func(c *Config) { c.Timeout = d }) }

// A Preset configures a dial.
type Preset interface{ configure(*Config) }

type presetOpts []Option

func (p presetOpts) configure(c *Config) {
	for _, o := range p {
		o.Apply(c)
	}
}

// NewPreset bundles options.
func NewPreset(opts ...Option) Preset { return presetOpts(opts) }

// WithPreset applies a preset.
func WithPreset(p Preset) Option { return optFunc(func(c *Config) { p.configure(c) }) }

// Conn is a connection made in the background.
type Conn struct{ ready chan struct{} }

// Open dials addr; configure, if set, adjusts the configuration first.
func Open(addr string, configure func(*Config), opts ...Option) *Conn {
	var c Config
	if configure != nil {
		configure(&c)
	}
	for _, o := range opts {
		o.Apply(&c)
	}
	conn := &Conn{ready: make(chan struct{})}
	go func() {
		if nc, err := net.DialTimeout("tcp", addr, c.Timeout); err == nil {
			nc.Close()
			close(conn.ready)
		}
	}()
	if c.wait {
		<-conn.ready
	}
	return conn
}

// Dial dials addr with options only.
func Dial(addr string, opts ...Option) *Conn {
	var c Config
	for _, o := range opts {
		o.Apply(&c)
	}
	conn := &Conn{ready: make(chan struct{})}
	go func() {
		if nc, err := net.DialTimeout("tcp", addr, c.Timeout); err == nil {
			nc.Close()
			close(conn.ready)
		}
	}()
	if c.wait {
		<-conn.ready
	}
	return conn
}
