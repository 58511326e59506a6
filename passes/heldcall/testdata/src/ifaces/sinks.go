package ifaces

import (
	"os"
	"strconv"
	"sync"
)

// sink is where the metrics aggregator sends its flushed points. Only this
// package implements it, so the analyzer judges a call by the
// implementations.
type sink interface {
	emit(name string, value float64)
}

type memSink struct {
	points map[string]float64
}

func (m *memSink) emit(name string, value float64) { m.points[name] = value }

type fileSink struct {
	f *os.File
}

func (s *fileSink) emit(name string, value float64) {
	s.f.WriteString(name + " " + strconv.FormatFloat(value, 'g', -1, 64) + "\n")
}

// Aggregator sums counters and flushes them to a sink.
type Aggregator struct {
	mu     sync.Mutex
	counts map[string]float64
	out    sink
}

func (a *Aggregator) FlushHeld() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for name, v := range a.counts {
		a.out.emit(name, v) // want `a.mu held across call of sink.emit, which blocks: \(\*fileSink\).emit -> os.\(\*File\).WriteString \(locked at sinks.go:38, released by defer\)`
	}
	a.counts = make(map[string]float64)
}

func (a *Aggregator) Flush() {
	a.mu.Lock()
	counts := a.counts
	a.counts = make(map[string]float64)
	out := a.out
	a.mu.Unlock()
	for name, v := range counts {
		out.emit(name, v)
	}
}

// keyer derives shard keys; every implementation is pure computation.
type keyer interface {
	key(id string) uint32
}

type fnvKeyer struct{}

func (fnvKeyer) key(id string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return h
}

type modKeyer struct{ n uint32 }

func (m modKeyer) key(id string) uint32 { return uint32(len(id)) % m.n }

// Placement assigns tenants to shards.
type Placement struct {
	mu     sync.Mutex
	keyer  keyer
	owners map[uint32]string
}

// Assign calls an unexported interface whose implementations only compute:
// not a finding.
func (p *Placement) Assign(tenant, node string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.owners[p.keyer.key(tenant)] = node
}
