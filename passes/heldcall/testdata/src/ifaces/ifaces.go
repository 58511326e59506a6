// Package ifaces holds interface method calls made while a lock is held,
// each next to its correct twin, and calls of interfaces known to be cheap.
package ifaces

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// AuditLog appends formatted audit records to a writer (a file, a socket,
// a remote log shipper: the log does not know).
type AuditLog struct {
	mu  sync.Mutex
	w   io.Writer
	seq int
}

func (l *AuditLog) RecordHeld(user, action string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	line := []byte(user + " " + action + "\n")
	_, err := l.w.Write(line) // want `l.mu held across call of interface method io.Writer.Write \(locked at ifaces.go:28, released by defer\) \(plausible: io\.Writer can be implemented outside this module\)`
	return err
}

// Record numbers the record under the lock and writes it after. (Records
// may reach the writer out of order; they carry their number.)
func (l *AuditLog) Record(user, action string) error {
	l.mu.Lock()
	l.seq++
	line := []byte(user + " " + action + "\n")
	w := l.w
	l.mu.Unlock()
	_, err := w.Write(line)
	return err
}

// Store persists sessions (Redis, a SQL table, ...).
type Store interface {
	Save(ctx context.Context, id string, data []byte) error
	Load(ctx context.Context, id string) ([]byte, error)
}

// WriteBackCache caches sessions in front of a Store.
type WriteBackCache struct {
	mu    sync.Mutex
	store Store
	dirty map[string][]byte
}

func (c *WriteBackCache) FlushHeld(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, data := range c.dirty {
		if err := c.store.Save(ctx, id, data); err != nil { // want `c.mu held across call of interface method Store.Save \(locked at ifaces.go:62, released by defer\) \(plausible: Store can be implemented outside this module\)`
			return err
		}
		delete(c.dirty, id)
	}
	return nil
}

func (c *WriteBackCache) Flush(ctx context.Context) error {
	c.mu.Lock()
	batch := c.dirty
	c.dirty = make(map[string][]byte)
	c.mu.Unlock()
	for id, data := range batch {
		if err := c.store.Save(ctx, id, data); err != nil {
			return err
		}
	}
	return nil
}

// Proxy routes requests to the current backend handler.
type Proxy struct {
	mu      sync.RWMutex
	backend http.Handler
}

func (p *Proxy) ServeHTTPHeld(w http.ResponseWriter, r *http.Request) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	p.backend.ServeHTTP(w, r) // want `p.mu held across call of interface method net/http.Handler.ServeHTTP \(locked at ifaces.go:93, released by defer\) \(plausible: net/http\.Handler can be implemented outside this module\)`
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.RLock()
	h := p.backend
	p.mu.RUnlock()
	h.ServeHTTP(w, r)
}

// Observer is told about membership changes in a cluster.
type Observer interface {
	MemberJoined(addr string)
}

// Membership tracks the live members of a cluster.
type Membership struct {
	mu        sync.Mutex
	members   map[string]time.Time
	observers []Observer
}

func (m *Membership) JoinHeld(addr string) {
	m.mu.Lock()
	m.members[addr] = time.Now()
	for _, o := range m.observers {
		o.MemberJoined(addr) // want `m.mu held across call of interface method Observer.MemberJoined \(locked at ifaces.go:118\) \(plausible: Observer can be implemented outside this module\)`
	}
	m.mu.Unlock()
}

func (m *Membership) Join(addr string) {
	m.mu.Lock()
	m.members[addr] = time.Now()
	obs := append([]Observer(nil), m.observers...)
	m.mu.Unlock()
	for _, o := range obs {
		o.MemberJoined(addr)
	}
}

// Conn is a pooled connection.
type Conn interface {
	io.Closer
	Healthy() bool
}

// ConnPool keeps idle connections.
type ConnPool struct {
	mu   sync.Mutex
	idle []Conn
}

// CloseIdleHeld closes idle connections under the lock: Close of a TLS
// connection sends close_notify and can wait on a dead peer.
func (p *ConnPool) CloseIdleHeld() {
	p.mu.Lock()
	for _, c := range p.idle {
		c.Close() // want `p.mu held across call of interface method io.Closer.Close \(locked at ifaces.go:151\) \(plausible: Conn can be implemented outside this module\)`
	}
	p.idle = nil
	p.mu.Unlock()
}

func (p *ConnPool) CloseIdle() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, c := range idle {
		c.Close()
	}
}

// ErrClosed is returned by a closed registry.
var ErrClosed = errors.New("registry closed")

// Lookup is the result of a registry lookup.
type Lookup struct {
	Addr string
	err  error
	key  fmt.Stringer
}

// Logger is a structured logger.
type Logger interface {
	Infof(format string, args ...any)
	Debugf(format string, args ...any)
	Errorf(format string, args ...any)
	Debugln(args ...any)
	Warnln(args ...any)
}

// Registry shows calls of cheap interfaces under a lock: none of them are
// findings.
type Registry struct {
	mu       sync.Mutex
	addrs    map[string]string
	order    sort.StringSlice
	sum      hash.Hash64
	log      Logger
	lookups  prometheus.Counter
	size     prometheus.Gauge
	latency  prometheus.Observer
	lastErr  error
	lastName fmt.Stringer
}

func (r *Registry) Register(ctx context.Context, name fmt.Stringer, addr string) error {
	start := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := ctx.Err(); err != nil {
		r.lastErr = err
		r.log.Errorf("register %s: %v", name.String(), err.Error())
		return err
	}
	if v := ctx.Value(traceKey{}); v != nil {
		r.log.Debugf("trace %v", v)
	}
	if _, ok := ctx.Deadline(); !ok {
		r.log.Debugf("no deadline")
		r.log.Debugln("register", addr, "without a deadline")
	}
	if addr == "" {
		r.log.Warnln("register", name.String(), "with no address")
	}
	key := name.String()
	r.addrs[key] = addr
	r.order = append(r.order, key)
	sort.Sort(r.order)
	r.order.Sort()
	r.sum.Reset()
	r.sum.Write([]byte(key))
	_ = r.sum.Sum64()
	r.lookups.Inc()
	r.size.Set(float64(len(r.addrs)))
	r.latency.Observe(time.Since(start).Seconds())
	r.lastName = name
	r.log.Infof("registered %s at %s", key, addr)
	return nil
}

type traceKey struct{}
