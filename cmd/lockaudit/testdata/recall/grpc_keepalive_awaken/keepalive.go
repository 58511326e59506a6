// Models grpc-go#1460 (GoKer grpc_1460): with no active streams the keepalive goroutine goes dormant in a select on awakenKeepalive / ctx.Done while still holding t.mu; NewStream, which would wake it, first needs t.mu (lock held across a multi-case select receive; the waker takes the lock before its non-blocking send).
package grpc_keepalive_awaken

import (
	"context"
	"sync"
	"time"
)

// Stream is one RPC.
type Stream struct{ id uint32 }

// KeepaliveParams configure pings.
type KeepaliveParams struct {
	Time                time.Duration
	PermitWithoutStream bool
}

type http2Client struct {
	ctx             context.Context
	mu              sync.Mutex
	activeStreams   map[uint32]*Stream
	nextID          uint32
	awakenKeepalive chan struct{}
	kp              KeepaliveParams
	pings           int
}

func newHTTP2Client(ctx context.Context, kp KeepaliveParams) *http2Client {
	t := &http2Client{ctx: ctx, activeStreams: map[uint32]*Stream{}, awakenKeepalive: make(chan struct{}), kp: kp}
	go t.keepalive()
	return t
}

// NewStream opens a stream and wakes a dormant keepalive.
func (t *http2Client) NewStream() *Stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextID += 2
	s := &Stream{id: t.nextID}
	t.activeStreams[s.id] = s
	if len(t.activeStreams) == 1 {
		select {
		case t.awakenKeepalive <- struct{}{}:
		default:
		}
	}
	return s
}

// keepalive pings the server while there are active streams. Buggy version.
func (t *http2Client) keepalive() {
	timer := time.NewTimer(t.kp.Time)
	for {
		select {
		case <-timer.C:
			t.mu.Lock()
			if len(t.activeStreams) < 1 && !t.kp.PermitWithoutStream {
				select {
				case <-t.awakenKeepalive: // BUG: dormant with t.mu held; NewStream needs t.mu to wake it
				case <-t.ctx.Done():
					t.mu.Unlock()
					return
				}
				t.mu.Unlock()
			} else {
				t.pings++
				t.mu.Unlock()
			}
			timer.Reset(t.kp.Time)
		case <-t.ctx.Done():
			timer.Stop()
			return
		}
	}
}

// http2ClientFixed is the fixed version (as grpc-go did): keepalive unlocks
// before going dormant, and awakenKeepalive has a buffer of one so a wake-up
// sent before keepalive waits is not lost.
type http2ClientFixed struct {
	ctx             context.Context
	mu              sync.Mutex
	activeStreams   map[uint32]*Stream
	nextID          uint32
	awakenKeepalive chan struct{}
	kp              KeepaliveParams
	pings           int
}

func newHTTP2ClientFixed(ctx context.Context, kp KeepaliveParams) *http2ClientFixed {
	t := &http2ClientFixed{ctx: ctx, activeStreams: map[uint32]*Stream{}, awakenKeepalive: make(chan struct{}, 1), kp: kp}
	go t.keepalive()
	return t
}

// NewStream opens a stream and wakes a dormant keepalive.
func (t *http2ClientFixed) NewStream() *Stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextID += 2
	s := &Stream{id: t.nextID}
	t.activeStreams[s.id] = s
	if len(t.activeStreams) == 1 {
		select {
		case t.awakenKeepalive <- struct{}{}:
		default:
		}
	}
	return s
}

func (t *http2ClientFixed) keepalive() {
	timer := time.NewTimer(t.kp.Time)
	for {
		select {
		case <-timer.C:
			t.mu.Lock()
			if len(t.activeStreams) < 1 && !t.kp.PermitWithoutStream {
				t.mu.Unlock()
				select {
				case <-t.awakenKeepalive:
				case <-t.ctx.Done():
					return
				}
			} else {
				t.pings++
				t.mu.Unlock()
			}
			timer.Reset(t.kp.Time)
		case <-t.ctx.Done():
			timer.Stop()
			return
		}
	}
}
