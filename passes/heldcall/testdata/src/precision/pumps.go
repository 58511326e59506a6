package precision

import (
	"context"
	"sync"
)

// An address book publishes new addresses to its subscribers under its
// read lock. Each subscriber has a pump goroutine that always receives
// from pubch and buffers without limit, so the send is a hand-off. The
// pump takes the book's lock only on its way out, once its context is
// done, and then the publisher's select leaves through the same Done.

type addrStream struct {
	pubch chan string
	ctx   context.Context
}

func (s *addrStream) publish(addr string) {
	select {
	case s.pubch <- addr:
	case <-s.ctx.Done():
	}
}

// publishNow is publish's twin without the way out: once the pump has
// stopped receiving, it waits for ever.
func (s *addrStream) publishNow(addr string) {
	s.pubch <- addr
}

type AddrBook struct {
	mu        sync.RWMutex
	streams   map[string][]*addrStream
	delivered int
}

func (b *AddrBook) Publish(peer, addr string) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, s := range b.streams[peer] {
		s.publish(addr)
	}
}

func (b *AddrBook) PublishNow(peer, addr string) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, s := range b.streams[peer] {
		s.publishNow(addr) // want `b.mu held across call of \(\*addrStream\).publishNow, which blocks: \(\*addrStream\).publishNow -> channel send \(locked at pumps.go:47, released by defer\)`
	}
}

func (b *AddrBook) unsubscribe(peer string, s *addrStream) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.streams, peer)
}

func (b *AddrBook) Subscribe(ctx context.Context, peer string) <-chan string {
	s := &addrStream{pubch: make(chan string), ctx: ctx}
	out := make(chan string)
	b.mu.Lock()
	b.streams[peer] = append(b.streams[peer], s)
	b.mu.Unlock()
	go func() {
		defer close(out)
		var backlog []string
		var outch chan string
		var next string
		for {
			select {
			case outch <- next:
				if len(backlog) > 0 {
					next, backlog = backlog[0], backlog[1:]
				} else {
					outch = nil
				}
			case addr := <-s.pubch:
				if outch == nil {
					next, outch = addr, out
				} else {
					backlog = append(backlog, addr)
				}
			case <-ctx.Done():
				b.unsubscribe(peer, s)
				return
			}
		}
	}()
	return out
}

// A counting book is its twin whose pump takes the book's lock on every
// delivery: a publisher holding the read lock while a writer waits
// deadlocks with it.

type countStream struct {
	pubch chan string
	ctx   context.Context
}

func (s *countStream) publish(addr string) {
	select {
	case s.pubch <- addr:
	case <-s.ctx.Done():
	}
}

type CountingBook struct {
	mu        sync.RWMutex
	streams   []*countStream
	delivered int
}

func (b *CountingBook) Publish(addr string) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, s := range b.streams {
		s.publish(addr) // want `b.mu held across call of \(\*countStream\).publish, which blocks: \(\*countStream\).publish -> select \(locked at pumps.go:117, released by defer\)`
	}
}

func (b *CountingBook) Subscribe(ctx context.Context) <-chan string {
	s := &countStream{pubch: make(chan string), ctx: ctx}
	out := make(chan string, 64)
	b.mu.Lock()
	b.streams = append(b.streams, s)
	b.mu.Unlock()
	go func() {
		for {
			select {
			case addr := <-s.pubch:
				b.mu.Lock()
				b.delivered++
				b.mu.Unlock()
				select {
				case out <- addr:
				default:
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
