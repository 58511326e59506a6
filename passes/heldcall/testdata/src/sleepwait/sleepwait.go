// Package sleepwait holds sleeps and waits on other goroutines executed
// while a lock is held, each next to its correct twin.
package sleepwait

import (
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// Backend is an upstream server behind the client.
type Backend struct {
	Addr    string
	Healthy bool
}

// Client retries failed requests with backoff.
type Client struct {
	mu       sync.Mutex
	backends []*Backend
	next     int
}

// PickHeld backs off with the client locked: every other request waits out
// the sleep too.
func (c *Client) PickHeld() (*Backend, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	backoff := 10 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ {
		for i := range c.backends {
			b := c.backends[(c.next+i)%len(c.backends)]
			if b.Healthy {
				c.next++
				return b, nil
			}
		}
		time.Sleep(backoff) // want `c.mu held across call of time.Sleep \(locked at sleepwait.go:29, released by defer\)`
		backoff *= 2
	}
	return nil, errors.New("no healthy backend")
}

// Pick sleeps between attempts with the lock released.
func (c *Client) Pick() (*Backend, error) {
	backoff := 10 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ {
		c.mu.Lock()
		for i := range c.backends {
			b := c.backends[(c.next+i)%len(c.backends)]
			if b.Healthy {
				c.next++
				c.mu.Unlock()
				return b, nil
			}
		}
		c.mu.Unlock()
		time.Sleep(backoff)
		backoff *= 2
	}
	return nil, errors.New("no healthy backend")
}

// Warmer loads a cache's hot keys in parallel.
type Warmer struct {
	mu     sync.Mutex
	loaded map[string][]byte
	fetch  func(key string) []byte
}

// WarmHeld waits for the loaders with w.mu held, and the loaders need
// w.mu to store their result: a deadlock.
func (w *Warmer) WarmHeld(keys []string) {
	var wg sync.WaitGroup
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, k := range keys {
		wg.Add(1)
		go func(k string) {
			defer wg.Done()
			v := w.fetch(k)
			w.mu.Lock()
			w.loaded[k] = v
			w.mu.Unlock()
		}(k)
	}
	wg.Wait() // want `w.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at sleepwait.go:77, released by defer\)`
}

func (w *Warmer) Warm(keys []string) {
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func(k string) {
			defer wg.Done()
			v := w.fetch(k)
			w.mu.Lock()
			w.loaded[k] = v
			w.mu.Unlock()
		}(k)
	}
	wg.Wait()
}

// Reindexer rebuilds a search index from shards.
type Reindexer struct {
	mu      sync.Mutex
	running bool
	shards  []func() error
}

func (r *Reindexer) RunHeld() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		return errors.New("reindex already running")
	}
	var g errgroup.Group
	for _, s := range r.shards {
		g.Go(s)
	}
	return g.Wait() // want `r.mu held across call of errgroup.\(\*Group\).Wait \(locked at sleepwait.go:115, released by defer\)`
}

func (r *Reindexer) Run() error {
	r.mu.Lock()
	if r.running {
		r.mu.Unlock()
		return errors.New("reindex already running")
	}
	r.running = true
	shards := append([]func() error(nil), r.shards...)
	r.mu.Unlock()

	var g errgroup.Group
	for _, s := range shards {
		g.Go(s)
	}
	err := g.Wait()

	r.mu.Lock()
	r.running = false
	r.mu.Unlock()
	return err
}

// Poller waits for a leader to be elected.
type Poller struct {
	mu     sync.Mutex
	leader string
}

// WaitLeaderHeld polls with the lock held: the election can never write
// the leader.
func (p *Poller) WaitLeaderHeld() string {
	p.mu.Lock()
	for p.leader == "" {
		time.Sleep(50 * time.Millisecond) // want `p.mu held across call of time.Sleep \(locked at sleepwait.go:158\)`
	}
	l := p.leader
	p.mu.Unlock()
	return l
}

// WaitLeader drops the lock for each sleep.
func (p *Poller) WaitLeader() string {
	for {
		p.mu.Lock()
		l := p.leader
		p.mu.Unlock()
		if l != "" {
			return l
		}
		time.Sleep(50 * time.Millisecond)
	}
}
