package rpcpool

import (
	"context"
	"sync"
	"time"

	"rpcpool/ctxdial"
	"rpcpool/defaultdial"
	"rpcpool/funcdial"
	"rpcpool/presetdial"
	"rpcpool/profiledial"
	"rpcpool/rpcdial"
)

// A Gateway dials its upstreams under its lock with libraries whose
// blocking flag can be set by something other than the dial's own
// options: each dial may wait.
type Gateway struct {
	mu       sync.Mutex
	pool     *rpcdial.Pool
	upstream *rpcdial.Conn
	profiled *profiledial.Conn
	defaults *defaultdial.Conn
	scoped   *ctxdial.Conn
	plain    *funcdial.Conn
	preset   *presetdial.Conn
}

// A profile with WithBlock copied whole into the dial's configuration.
func (g *Gateway) dialProfiled(ctx context.Context, addr string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := profiledial.Dial(ctx, addr, profiledial.WithTracing()) // want `g.mu held across call of profiledial.Dial, which blocks: profiledial.Dial -> select \(locked`
	g.profiled = c
	return err
}

// Process-wide defaults, which a program may set to WithBlock.
func (g *Gateway) dialDefaults(ctx context.Context, addr string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := defaultdial.Dial(ctx, addr, defaultdial.WithTracing()) // want `g.mu held across call of defaultdial.Dial, which blocks: defaultdial.Dial -> select \(locked`
	g.defaults = c
	return err
}

// Options carried on the context.
func (g *Gateway) dialScoped(ctx context.Context, addr string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := ctxdial.Dial(ctx, addr, ctxdial.WithTracing()) // want `g.mu held across call of ctxdial.Dial, which blocks: ctxdial.Dial -> select \(locked`
	g.scoped = c
	return err
}

// A pool method's teardown of a connection it has just made still waits
// for the connection's goroutine.
func (g *Gateway) grow() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, err := g.pool.Get() // want `g.mu held across call of rpcdial.\(\*Pool\).Get, which blocks: rpcdial.\(\*Pool\).Get -> rpcdial.\(\*Pool\).Get.func1 -> rpcdial.\(\*Conn\).Close -> channel receive \(locked`
	return err
}

// So does a function's, on its way out of a failure.
func (g *Gateway) replace() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := rpcdial.Replace(g.upstream) // want `g.mu held across call of rpcdial.Replace, which blocks: rpcdial.Replace -> rpcdial.Replace.func1 -> rpcdial.\(\*Conn\).Close -> channel receive \(locked`
	if err == nil {
		g.upstream = c
	}
	return err
}

// Options that are funcs: tracing only, Dial returns at once.
func (g *Gateway) dialTraced(ctx context.Context, addr string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := funcdial.Dial(ctx, addr, funcdial.WithTracing())
	g.plain = c
	return err
}

// WithBlock hidden in a combination of option funcs.
func (g *Gateway) dialCombined(ctx context.Context, addr string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := funcdial.Dial(ctx, addr, funcdial.Combine(funcdial.WithTracing(), funcdial.WithBlock())) // want `g.mu held across call of funcdial.Dial, which blocks: funcdial.Dial -> select \(locked`
	g.plain = c
	return err
}

var strictPreset = presetdial.NewPreset(presetdial.WithWait())

// Options with a timeout only: Dial returns at once.
func (g *Gateway) dialPlain(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.preset = presetdial.Dial(addr, presetdial.WithTimeout(time.Second))
}

// A preset handed the configuration applies WithWait.
func (g *Gateway) dialPreset(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.preset = presetdial.Dial(addr, presetdial.WithPreset(strictPreset)) // want `g.mu held across call of presetdial.Dial, which blocks: presetdial.Dial -> channel receive`
}

// So does a configure func handed the configuration.
func (g *Gateway) openConfigured(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.preset = presetdial.Open(addr, func(c *presetdial.Config) { presetdial.WithWait().Apply(c) }) // want `g.mu held across call of presetdial.Open, which blocks: presetdial.Open -> channel receive`
}
