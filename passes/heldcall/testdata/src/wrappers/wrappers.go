// Package wrappers holds locks taken and released through small wrapper
// functions (lock(), unlock(), rlock()), each positive next to its correct
// twin.
package wrappers

import (
	"net"
	"sync"
	"time"
)

// Pool is a connection pool whose lock is taken through helpers.
type Pool struct {
	mu      sync.Mutex
	idle    []net.Conn
	dial    func() (net.Conn, error)
	onEvict func(net.Conn)
	waiters chan struct{}
}

func (p *Pool) lock()   { p.mu.Lock() }
func (p *Pool) unlock() { p.mu.Unlock() }

// GetHeld dials through the pool's dial func between lock() and unlock().
func (p *Pool) GetHeld() (net.Conn, error) {
	p.lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.unlock()
		return c, nil
	}
	c, err := p.dial() // want `p.mu held across call of func value p.dial \(locked at wrappers.go:26\) \(plausible: the func value can be field dial, which the package never sets\)`
	p.unlock()
	return c, err
}

func (p *Pool) Get() (net.Conn, error) {
	p.lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.unlock()
		return c, nil
	}
	dial := p.dial
	p.unlock()
	return dial()
}

// PutHeld evicts with the pool locked until the deferred unlock().
func (p *Pool) PutHeld(c net.Conn, max int) {
	p.lock()
	defer p.unlock()
	if len(p.idle) >= max {
		p.onEvict(c) // want `p.mu held across call of func value p.onEvict \(locked at wrappers.go:53, released by defer\) \(plausible: the func value can be field onEvict, which the package never sets\)`
		return
	}
	p.idle = append(p.idle, c)
	p.waiters <- struct{}{} // want `p.mu held across channel send \(locked at wrappers.go:53, released by defer\)`
}

func (p *Pool) Put(c net.Conn, max int) {
	p.lock()
	full := len(p.idle) >= max
	if !full {
		p.idle = append(p.idle, c)
	}
	p.unlock()
	if full {
		p.onEvict(c)
		return
	}
	select {
	case p.waiters <- struct{}{}:
	default:
	}
}

// Limits is a set of per-client rate limits behind a read-write lock.
type Limits struct {
	mu     sync.RWMutex
	perSec map[string]float64
	miss   func(client string) float64
}

func (l *Limits) rlock()   { l.mu.RLock() }
func (l *Limits) runlock() { l.mu.RUnlock() }

func (l *Limits) ForHeld(client string) float64 {
	l.rlock()
	defer l.runlock()
	if v, ok := l.perSec[client]; ok {
		return v
	}
	return l.miss(client) // want `l.mu held across call of func value l.miss \(locked at wrappers.go:91, released by defer\) \(plausible: the func value can be field miss, which the package never sets\)`
}

func (l *Limits) For(client string) float64 {
	l.rlock()
	v, ok := l.perSec[client]
	l.runlock()
	if ok {
		return v
	}
	return l.miss(client)
}

// registryMu guards the package's codec registry.
var registryMu sync.Mutex

var codecs = map[string]func([]byte) ([]byte, error){}

func lockRegistry()   { registryMu.Lock() }
func unlockRegistry() { registryMu.Unlock() }

// RegisterCodecHeld probes the codec under the package lock.
func RegisterCodecHeld(name string, codec func([]byte) ([]byte, error)) error {
	lockRegistry()
	defer unlockRegistry()
	if _, err := codec(nil); err != nil { // want `registryMu held across call of func value codec \(locked at wrappers.go:119, released by defer\)`
		return err
	}
	codecs[name] = codec
	return nil
}

func RegisterCodec(name string, codec func([]byte) ([]byte, error)) error {
	if _, err := codec(nil); err != nil {
		return err
	}
	lockRegistry()
	codecs[name] = codec
	unlockRegistry()
	return nil
}

// bucket is one entry of a rate limiter; helpers take it by pointer.
type bucket struct {
	mu     sync.Mutex
	tokens int
	last   time.Time
}

func lockBucket(b *bucket)   { b.mu.Lock() }
func unlockBucket(b *bucket) { b.mu.Unlock() }

// Throttle waits for a token from a global bucket.
type Throttle struct {
	global *bucket
}

func (t *Throttle) TakeHeld() {
	lockBucket(t.global)
	for t.global.tokens == 0 {
		time.Sleep(10 * time.Millisecond) // want `t.global.mu held across call of time.Sleep \(locked at wrappers.go:154\)`
		t.global.tokens = int(time.Since(t.global.last) / time.Second)
	}
	t.global.tokens--
	unlockBucket(t.global)
}

func (t *Throttle) Take() {
	for {
		lockBucket(t.global)
		if n := int(time.Since(t.global.last) / time.Second); n > t.global.tokens {
			t.global.tokens = n
		}
		if t.global.tokens > 0 {
			t.global.tokens--
			unlockBucket(t.global)
			return
		}
		unlockBucket(t.global)
		time.Sleep(10 * time.Millisecond)
	}
}

// Ring is a ring buffer of log lines whose lock is taken through two
// levels of wrappers.
type Ring struct {
	mu    sync.Mutex
	lines []string
	next  int
	sink  func(line string)
}

func (r *Ring) lock()      { r.mu.Lock() }
func (r *Ring) lockWrite() { r.lock() }

func (r *Ring) AppendHeld(line string) {
	r.lockWrite()
	r.lines[r.next%len(r.lines)] = line
	r.next++
	r.sink(line) // want `r.mu held across call of func value r.sink \(locked at wrappers.go:192\) \(plausible: the func value can be field sink, which the package never sets\)`
	r.mu.Unlock()
}

func (r *Ring) Append(line string) {
	r.lockWrite()
	r.lines[r.next%len(r.lines)] = line
	r.next++
	r.mu.Unlock()
	r.sink(line)
}
