// Package locker holds locks reached through sync.Locker and lock-shaped
// interfaces, each positive next to its correct twin.
package locker

import (
	"io"
	"sync"
)

// Registry is a service registry whose lock the embedding program chooses
// (a real mutex, or a no-op one in single-threaded tools).
type Registry struct {
	mu       sync.Locker
	services map[string]string
	onChange func(name, addr string)
}

func NewRegistry(l sync.Locker) *Registry {
	return &Registry{mu: l, services: map[string]string{}}
}

func (r *Registry) RegisterHeld(name, addr string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.services[name] = addr
	r.onChange(name, addr) // want `r.mu held across call of func value r.onChange \(locked at locker.go:23, released by defer\) \(plausible: the func value can be field onChange, which the package never sets\)`
}

func (r *Registry) Register(name, addr string) {
	r.mu.Lock()
	r.services[name] = addr
	r.mu.Unlock()
	r.onChange(name, addr)
}

// withLock runs fn with l held.
func withLock(l sync.Locker, fn func()) {
	l.Lock()
	defer l.Unlock()
	fn() // want `l held across call of func value fn \(locked at locker.go:38, released by defer\) \(plausible: the func value can be a parameter of withLock, which the package never calls\)`
}

// withSnapshot copies the state under l and hands fn the copy after.
func withSnapshot(l sync.Locker, src map[string]string, fn func(map[string]string)) {
	l.Lock()
	cp := make(map[string]string, len(src))
	for k, v := range src {
		cp[k] = v
	}
	l.Unlock()
	fn(cp)
}

// Dump uses the snapshot helper.
func (r *Registry) Dump(fn func(map[string]string)) {
	withSnapshot(r.mu, r.services, fn)
}

// RWLocker is a read-write lock interface, satisfied by *sync.RWMutex and
// by instrumented locks.
type RWLocker interface {
	Lock()
	Unlock()
	RLock()
	RUnlock()
}

// Exporter writes the registry to a sink for a sidecar.
type Exporter struct {
	lock RWLocker
	reg  map[string]string
	out  io.Writer
}

func (e *Exporter) ExportHeld() error {
	e.lock.RLock()
	defer e.lock.RUnlock()
	for name, addr := range e.reg {
		if _, err := e.out.Write([]byte(name + " " + addr + "\n")); err != nil { // want `e.lock held across call of interface method io.Writer.Write \(locked at locker.go:76, released by defer\) \(plausible: io\.Writer can be implemented outside this module\)`
			return err
		}
	}
	return nil
}

func (e *Exporter) Export() error {
	e.lock.RLock()
	var lines []string
	for name, addr := range e.reg {
		lines = append(lines, name+" "+addr+"\n")
	}
	e.lock.RUnlock()
	for _, l := range lines {
		if _, err := e.out.Write([]byte(l)); err != nil {
			return err
		}
	}
	return nil
}

// FlushHeld calls the writer directly through the interface lock.
func (e *Exporter) FlushHeld(data []byte) error {
	e.lock.Lock()
	_, err := e.out.Write(data) // want `e.lock held across call of interface method io.Writer.Write \(locked at locker.go:103\) \(plausible: io\.Writer can be implemented outside this module\)`
	e.lock.Unlock()
	return err
}

func (e *Exporter) Flush(data []byte) error {
	e.lock.Lock()
	out := e.out
	e.lock.Unlock()
	_, err := out.Write(data)
	return err
}
