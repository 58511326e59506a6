package callbacks

import (
	"errors"
	"sync"
	"time"
)

// A pull consumer is configured by options. The option interface is
// sealed by an unexported method, and the func-typed option is an
// unexported type that only the package's constructors make.

type consumeOpts struct {
	maxMessages int
	expires     time.Duration
	ErrHandler  ConsumeErrHandler
}

type ConsumeOpt interface {
	configure(*consumeOpts) error
}

type consumeOptFunc func(*consumeOpts) error

func (f consumeOptFunc) configure(o *consumeOpts) error { return f(o) }

type MaxMessages int

func (n MaxMessages) configure(o *consumeOpts) error {
	if n <= 0 {
		return errors.New("max messages must be positive")
	}
	o.maxMessages = int(n)
	return nil
}

// Expires sets how long a pull request waits on the server.
func Expires(d time.Duration) ConsumeOpt {
	return consumeOptFunc(func(o *consumeOpts) error {
		o.expires = d
		return nil
	})
}

type PullConsumer struct {
	mu   sync.Mutex
	opts *consumeOpts
}

func parseConsumeOpts(opts ...ConsumeOpt) (*consumeOpts, error) {
	o := &consumeOpts{maxMessages: 100, expires: 30 * time.Second}
	for _, opt := range opts {
		if err := opt.configure(o); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Consume applies the options under the consumer's lock: every option is
// one of the package's own setters. Not a finding.
func (c *PullConsumer) Consume(opts ...ConsumeOpt) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, err := parseConsumeOpts(opts...)
	if err != nil {
		return err
	}
	c.opts = o
	return nil
}

// A hook type that the exported API takes in is the user's code: a func
// literal of its signature is assignable to it.

type fetchHook func(n int)

type Fetcher struct {
	mu      sync.Mutex
	fetched int
	hook    fetchHook
}

// OnFetch registers the user's hook.
func (f *Fetcher) OnFetch(h fetchHook) { f.hook = h }

// Fetch runs the user's hook under the fetcher's lock.
func (f *Fetcher) Fetch(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetched += n
	f.hook(n) // want `f.mu held across call of func value f.hook \(locked at options.go:\d+, released by defer\)`
}

// An error handler option: users convert their func to the exported
// ConsumeErrHandler type, and the option stores it in the unexported
// options struct.

type ConsumeErrHandler func(err error)

func (h ConsumeErrHandler) configure(o *consumeOpts) error {
	o.ErrHandler = h
	return nil
}

type StatusLoop struct {
	mu      sync.Mutex
	onError ConsumeErrHandler
	missed  int
}

// Start applies the options, then reports missed heartbeats to the user's
// handler under the loop's lock.
func (s *StatusLoop) Start(opts ...ConsumeOpt) error {
	o, err := parseConsumeOpts(opts...)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onError = o.ErrHandler
	return nil
}

func (s *StatusLoop) heartbeatMissed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.missed++
	if s.onError != nil {
		s.onError(err) // want `s.mu held across call of func value s.onError \(locked at options.go:\d+, released by defer\)`
	}
}
