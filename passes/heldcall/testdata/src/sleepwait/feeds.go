package sleepwait

import (
	"reflect"
	"sync"
)

// An event feed delivers each value to every subscribed channel, whatever
// its element type, through reflect.Select: it waits until each
// subscriber has taken the value.
type Feed struct {
	mu   sync.Mutex
	subs []reflect.Value
}

func (f *Feed) Subscribe(ch any) {
	f.mu.Lock()
	f.subs = append(f.subs, reflect.ValueOf(ch))
	f.mu.Unlock()
}

// Send delivers v to every subscriber, after the subscriber list is read.
func (f *Feed) Send(v any) (sent int) {
	rv := reflect.ValueOf(v)
	f.mu.Lock()
	cases := make([]reflect.SelectCase, 0, len(f.subs))
	for _, ch := range f.subs {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectSend, Chan: ch, Send: rv})
	}
	f.mu.Unlock()
	for len(cases) > 0 {
		chosen, _, _ := reflect.Select(cases)
		cases = append(cases[:chosen], cases[chosen+1:]...)
		sent++
	}
	return sent
}

// SendLocked delivers v with the subscriber list locked: a subscriber that
// unsubscribes before it reads waits for the lock forever.
func (f *Feed) SendLocked(v any) (sent int) {
	rv := reflect.ValueOf(v)
	f.mu.Lock()
	defer f.mu.Unlock()
	cases := make([]reflect.SelectCase, 0, len(f.subs))
	for _, ch := range f.subs {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectSend, Chan: ch, Send: rv})
	}
	for len(cases) > 0 {
		chosen, _, _ := reflect.Select(cases) // want `f.mu held across call of reflect.Select \(locked at feeds.go:\d+, released by defer\)`
		cases = append(cases[:chosen], cases[chosen+1:]...)
		sent++
	}
	return sent
}

// TrySendLocked offers v to each subscriber without waiting.
func (f *Feed) TrySendLocked(v any) (sent int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ch := range f.subs {
		if ch.TrySend(reflect.ValueOf(v)) {
			sent++
		}
	}
	return sent
}

// A mempool announces each added transaction on its feed.
type Mempool struct {
	mu      sync.Mutex
	pending map[string]uint64
	feed    Feed
}

// Add records the transaction, then announces it once the pool is
// unlocked.
func (p *Mempool) Add(from string, nonce uint64) {
	p.mu.Lock()
	p.pending[from] = nonce
	p.mu.Unlock()
	p.feed.Send(nonce)
}

// AddAnnounced announces the transaction with the pool locked: a
// subscriber that reads the pool before it drains its channel deadlocks.
func (p *Mempool) AddAnnounced(from string, nonce uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending[from] = nonce
	p.feed.Send(nonce) // want `p.mu held across call of \(\*Feed\).Send, which blocks: \(\*Feed\).Send -> reflect.Select \(locked at feeds.go:\d+, released by defer\)`
}
