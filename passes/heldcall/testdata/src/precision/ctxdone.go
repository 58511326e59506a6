package precision

import (
	"context"
	"sync"
	"time"
)

// A context's Done channel is closed once and stays closed: a receive from
// it cannot wait once the function has received from it, or has called the
// context's own cancel func, on every path.

// watchProxy serves watches until it loses its leader, then waits for its
// outstanding streams with the lock held so that no new stream joins.
type watchProxy struct {
	mu      sync.Mutex
	wg      sync.WaitGroup
	ctx     context.Context
	lost    chan struct{}
	streams int
}

// newWatchProxy cancels its own context when the leader is lost: after the
// select, the context is done whichever case ran. Not a finding.
func newWatchProxy(parent context.Context, lost chan struct{}) *watchProxy {
	cctx, cancel := context.WithCancel(parent)
	wp := &watchProxy{ctx: cctx, lost: lost}
	go func() {
		wp.mu.Lock()
		select { // want `wp.mu held across blocking select \(locked at ctxdone.go:29\)`
		case <-wp.ctx.Done():
		case <-wp.lost:
			cancel()
		}
		<-wp.ctx.Done()
		wp.streams = -1
		wp.mu.Unlock()
		wp.wg.Wait()
	}()
	return wp
}

// leaseProxy is its twin, except that a shutdown request leaves the
// context running: the last receive waits for the parent.
type leaseProxy struct {
	mu     sync.Mutex
	ctx    context.Context
	lost   chan struct{}
	leases int
}

func newLeaseProxy(parent context.Context, lost, shutdown chan struct{}) *leaseProxy {
	cctx, cancel := context.WithCancel(parent)
	lp := &leaseProxy{ctx: cctx, lost: lost}
	go func() {
		lp.mu.Lock()
		select { // want `lp.mu held across blocking select \(locked at ctxdone.go:56\)`
		case <-shutdown:
		case <-lp.lost:
			cancel()
		}
		<-lp.ctx.Done() // want `lp.mu held across channel receive \(locked at ctxdone.go:56\)`
		lp.leases = 0
		lp.mu.Unlock()
	}()
	return lp
}

// gateway runs a serve loop under a context of its own.
type gateway struct {
	mu      sync.Mutex
	running bool
}

func (g *gateway) serve(ctx context.Context) { <-ctx.Done() }

// restart stops the loop it started: cancel, then wait for the context,
// which is done already. Not a finding.
func (g *gateway) restart(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	go g.serve(ctx)
	g.mu.Lock()
	cancel()
	<-ctx.Done()
	g.running = false
	g.mu.Unlock()
}

// restartWrongCancel cancels the request's context, not the loop's.
func (g *gateway) restartWrongCancel(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	req, cancelReq := context.WithCancel(parent)
	go g.serve(ctx)
	go g.serve(req)
	g.mu.Lock()
	cancelReq()
	<-ctx.Done() // want `g.mu held across channel receive \(locked at ctxdone.go:95\)`
	g.running = false
	g.mu.Unlock()
	cancel()
}

// restartSibling waits for a context derived from the cancelled one's
// parent: cancelling a child does not cancel its parent's other children.
func (g *gateway) restartSibling(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	sibling, stop := context.WithCancel(parent)
	go g.serve(ctx)
	g.mu.Lock()
	cancel()
	<-sibling.Done() // want `g.mu held across channel receive \(locked at ctxdone.go:109\)`
	g.running = false
	g.mu.Unlock()
	stop()
}

// restartOwn is its twin: it waits for the context it cancelled.
func (g *gateway) restartOwn(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	sibling, stop := context.WithCancel(parent)
	go g.serve(sibling)
	g.mu.Lock()
	cancel()
	<-ctx.Done()
	g.running = false
	g.mu.Unlock()
	stop()
}

// closeAfter waits for the client to go away, then for its context once
// more: the first receive waits with the lock held, the second cannot.
func (g *gateway) closeAfter(client context.Context) {
	g.mu.Lock()
	defer g.mu.Unlock()
	<-client.Done() // want `g.mu held across channel receive \(locked at ctxdone.go:133, released by defer\)`
	g.running = false
	<-client.Done()
}

// supervisor moves on to the next worker's context once one is done: the
// second receive is from another context, and waits.
type supervisor struct {
	mu       sync.Mutex
	ctx      context.Context
	restarts int
}

func (s *supervisor) restartWorker(next context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	<-s.ctx.Done() // want `s.mu held across channel receive \(locked at ctxdone.go:149, released by defer\)`
	s.ctx = next
	s.restarts++
	<-s.ctx.Done() // want `s.mu held across channel receive \(locked at ctxdone.go:149, released by defer\)`
}

// drainAll stops each backend in turn: the context cancelled in one round
// is not the next round's. Only the receive before the cancel waits.
func (g *gateway) drainAll(parent context.Context, backends []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for range backends {
		ctx, cancel := context.WithCancel(parent)
		go g.serve(ctx)
		<-ctx.Done() // want `g.mu held across channel receive \(locked at ctxdone.go:160, released by defer\)`
		cancel()
		<-ctx.Done()
	}
	g.running = false
}

// watcher keeps the cancel func of its own context.
type watcher struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	events []string
}

func newWatcher(parent context.Context) *watcher {
	ctx, cancel := context.WithCancel(parent)
	return &watcher{ctx: ctx, cancel: cancel}
}

// Close cancels the watcher's context and waits for it: it is done. Not a
// finding.
func (w *watcher) Close() {
	w.mu.Lock()
	w.cancel()
	<-w.ctx.Done()
	w.events = nil
	w.mu.Unlock()
}

// stream keeps its client's context and the cancel func of its send loop:
// cancelling the loop does not end the client.
type stream struct {
	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	pending []string
}

func newStream(client context.Context) *stream {
	sendCtx, cancel := context.WithCancel(client)
	st := &stream{ctx: client, cancel: cancel}
	go st.sendLoop(sendCtx)
	return st
}

func (st *stream) sendLoop(ctx context.Context) { <-ctx.Done() }

// Queue adds a message for the send loop.
func (st *stream) Queue(msg string) {
	st.mu.Lock()
	st.pending = append(st.pending, msg)
	st.mu.Unlock()
}

// Close is watcher.Close's twin on the stream: it waits for the client.
func (st *stream) Close() {
	st.mu.Lock()
	st.cancel()
	<-st.ctx.Done() // want `st.mu held across channel receive \(locked at ctxdone.go:\d+\)`
	st.pending = nil
	st.mu.Unlock()
}

// subscription renews its context when a client resubscribes.
type subscription struct {
	mu       sync.Mutex
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelFunc
	closedAt time.Time
}

func newSubscription(parent context.Context) *subscription {
	s := &subscription{parent: parent}
	s.renew()
	return s
}

func (s *subscription) renew() {
	s.ctx, s.cancel = context.WithCancel(s.parent)
}

// Close cancels and then waits: the clock read between runs no code of
// the package that could renew the context. Not a finding.
func (s *subscription) Close() {
	s.mu.Lock()
	s.cancel()
	s.closedAt = time.Now()
	<-s.ctx.Done()
	s.mu.Unlock()
}

// Resubscribe renews the context between the cancel and the receive: the
// receive waits on the new one.
func (s *subscription) Resubscribe() {
	s.mu.Lock()
	s.cancel()
	s.renew()
	<-s.ctx.Done() // want `s.mu held across channel receive \(locked at ctxdone.go:\d+\)`
	s.mu.Unlock()
}

// proxy stops its backends' context from helpers.
type proxy struct {
	mu       sync.Mutex
	ctx      context.Context
	cancel   context.CancelFunc
	backends []string
}

func newProxy(parent context.Context) *proxy {
	p := &proxy{}
	p.ctx, p.cancel = context.WithCancel(parent)
	return p
}

// waitStopped cancels before it waits: it does not block.
func (p *proxy) waitStopped() {
	p.cancel()
	<-p.ctx.Done()
}

// waitDone waits for someone else to cancel.
func (p *proxy) waitDone() {
	<-p.ctx.Done()
}

// Stop clears the backends once the proxy is stopped. Not a finding.
func (p *proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waitStopped()
	p.backends = nil
}

// Drain is its twin: it waits, with the lock held, for a Stop elsewhere.
func (p *proxy) Drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waitDone() // want `p.mu held across call of \(\*proxy\).waitDone, which blocks: \(\*proxy\).waitDone -> channel receive \(locked at ctxdone.go:\d+, released by defer\)`
	p.backends = nil
}
