package precision

import (
	"sync"
	"time"
)

// CloseOpt configures a channel close. Its parameter is the package's
// unexported closeConfig, so no other package can write one: every value
// is one of the package's option constructors, plain setters.
type CloseOpt func(*closeConfig)

type closeConfig struct {
	rbf   bool
	grace time.Duration
}

func WithRBF() CloseOpt { return func(c *closeConfig) { c.rbf = true } }

func WithGrace(d time.Duration) CloseOpt { return func(c *closeConfig) { c.grace = d } }

type PaymentChannel struct {
	mu     sync.Mutex
	closed bool
	grace  time.Duration
}

func (p *PaymentChannel) Close(opts ...CloseOpt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	cfg := closeConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	p.closed, p.grace = true, cfg.grace
}

// DialOpt is its twin over an exported config: users write their own
// options, which can do anything, and Dial runs them under its lock.
type DialOpt func(*DialConfig)

type DialConfig struct {
	Timeout time.Duration
}

type Dialer struct {
	mu      sync.Mutex
	timeout time.Duration
}

func (d *Dialer) Dial(opts ...DialOpt) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cfg := DialConfig{}
	for _, o := range opts {
		o(&cfg) // want `d.mu held across call of func value o \(locked at options.go:52, released by defer\)`
	}
	d.timeout = cfg.Timeout
}
