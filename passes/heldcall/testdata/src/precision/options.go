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

// DialOpt is an option over an exported config: users write their own,
// but a functional option sets fields of the fresh config it is handed,
// so running them under the lock is a note.
type DialOpt func(*DialConfig)

type DialConfig struct {
	Timeout time.Duration
}

type Dialer struct {
	mu      sync.Mutex
	timeout time.Duration
	onDial  DialHook
}

func (d *Dialer) Dial(opts ...DialOpt) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cfg := DialConfig{}
	for _, o := range opts {
		o(&cfg) // want `d.mu held across call of func value o \(locked at options.go:\d+, released by defer\) \(plausible: an option applied to an object no other goroutine can reach yet\)`
	}
	d.timeout = cfg.Timeout
}

// DialHook is its twin: a hook handed a fresh event is the user's work
// (logging it, counting it, calling out), not configuration.
type DialHook func(*DialEvent)

type DialEvent struct {
	Timeout time.Duration
	Err     error
}

// NewDialer takes the user's hook.
func NewDialer(onDial DialHook) *Dialer { return &Dialer{onDial: onDial} }

func (d *Dialer) Redial() {
	d.mu.Lock()
	defer d.mu.Unlock()
	ev := DialEvent{Timeout: d.timeout}
	d.onDial(&ev) // want `d.mu held across call of func value d.onDial \(locked at options.go:\d+, released by defer\)`
}

// dialConfigOf applies the caller's options to a config it makes and
// returns, as a package's ProcessOptions helper does.
func dialConfigOf(opts []DialOpt) DialConfig {
	cfg := DialConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// Reconfigure applies the options through the helper, under the lock: a
// note, as when it applies them itself.
func (d *Dialer) Reconfigure(opts ...DialOpt) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cfg := dialConfigOf(opts) // want `d.mu held across call of dialConfigOf.*plausible: an option applied to an object no other goroutine can reach yet`
	d.timeout = cfg.Timeout
}

// fireDialHooks hands the callers' hooks a fresh event.
func fireDialHooks(hooks []DialHook, timeout time.Duration) {
	ev := DialEvent{Timeout: timeout}
	for _, h := range hooks {
		h(&ev)
	}
}

// Announce is its twin through a helper that runs hooks: proven.
func (d *Dialer) Announce(hooks ...DialHook) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fireDialHooks(hooks, d.timeout) // want `d.mu held across call of fireDialHooks`
}
