// Models codahale/metrics PR #16 ("locking: Prevent deadlock by making lock
// ordering consistent"): the package guards its registries with three
// package-level mutexes. Snapshot takes cm, then gm, then hm (deferred
// unlocks, all three held at once); NewHistogram takes hm and registers the
// histogram's percentile gauges through Gauge(name).SetBatchFunc, a method on
// a named string type, which takes gm. A Snapshot (expvar) racing the
// creation of a histogram deadlocks on gm/hm (AB-BA between package-level
// mutexes; one side holds three, the other reaches the second lock through a
// method of a string-kinded type).
package codahale_metrics_globals

import (
	"sort"
	"sync"
)

// Counter is a monotonically increasing counter.
type Counter string

// Gauge is an instantaneous value.
type Gauge string

var (
	counters     = make(map[string]uint64)
	counterFuncs = make(map[string]func() uint64)
	gauges       = make(map[string]func() int64)
	inits        = make(map[interface{}]func())
	histograms   = make(map[string]*Histogram)

	cm, gm, hm sync.Mutex
)

// Add increments the counter by one.
func (c Counter) Add() {
	cm.Lock()
	defer cm.Unlock()
	counters[string(c)]++
}

// SetBatchFunc sets the gauge's value function, with an initializer shared by
// a batch of gauges keyed by key.
func (g Gauge) SetBatchFunc(key interface{}, init func(), f func() int64) {
	gm.Lock()
	defer gm.Unlock()
	gauges[string(g)] = f
	if _, ok := inits[key]; !ok {
		inits[key] = init
	}
}

// Remove removes the gauge.
func (g Gauge) Remove() {
	gm.Lock()
	defer gm.Unlock()
	delete(gauges, string(g))
}

// Snapshot returns the values of all counters and gauges.
func Snapshot() (c map[string]uint64, g map[string]int64) {
	cm.Lock()
	defer cm.Unlock()
	gm.Lock()
	defer gm.Unlock()
	hm.Lock() // BUG: gm -> hm here, hm -> gm in NewHistogram
	defer hm.Unlock()

	for _, init := range inits {
		init()
	}
	c = make(map[string]uint64, len(counters)+len(counterFuncs))
	for n, v := range counters {
		c[n] = v
	}
	for n, f := range counterFuncs {
		c[n] = f()
	}
	g = make(map[string]int64, len(gauges))
	for n, f := range gauges {
		g[n] = f()
	}
	return
}

// Histogram tracks a distribution of values.
type Histogram struct {
	name   string
	rw     sync.RWMutex
	values []int64
	merged []int64
}

type hname string

// NewHistogram registers a histogram and its percentile gauges.
func NewHistogram(name string) *Histogram {
	hm.Lock()
	defer hm.Unlock()
	if _, ok := histograms[name]; ok {
		panic(name + " already exists")
	}
	hist := &Histogram{name: name}
	histograms[name] = hist
	Gauge(name+".P50").SetBatchFunc(hname(name), hist.merge, hist.valueAt(50)) // hm -> gm
	Gauge(name+".P99").SetBatchFunc(hname(name), hist.merge, hist.valueAt(99))
	return hist
}

// RecordValue records v.
func (h *Histogram) RecordValue(v int64) {
	h.rw.Lock()
	defer h.rw.Unlock()
	h.values = append(h.values, v)
}

func (h *Histogram) merge() {
	h.rw.Lock()
	defer h.rw.Unlock()
	h.merged = append(h.merged[:0], h.values...)
	sort.Slice(h.merged, func(i, j int) bool { return h.merged[i] < h.merged[j] })
}

func (h *Histogram) valueAt(q float64) func() int64 {
	return func() int64 {
		h.rw.RLock()
		defer h.rw.RUnlock()
		if len(h.merged) == 0 {
			return 0
		}
		return h.merged[int(q/100*float64(len(h.merged)-1))]
	}
}

// Fixed version: the same registries with one lock order everywhere, hm
// first, then gm, then cm.

// GaugeFixed is an instantaneous value.
type GaugeFixed string

var (
	countersFixed   = make(map[string]uint64)
	gaugesFixed     = make(map[string]func() int64)
	initsFixed      = make(map[interface{}]func())
	histogramsFixed = make(map[string]*Histogram)

	cmFixed, gmFixed, hmFixed sync.Mutex
)

// SetBatchFunc sets the gauge's value function.
func (g GaugeFixed) SetBatchFunc(key interface{}, init func(), f func() int64) {
	gmFixed.Lock()
	defer gmFixed.Unlock()
	gaugesFixed[string(g)] = f
	if _, ok := initsFixed[key]; !ok {
		initsFixed[key] = init
	}
}

// SnapshotFixed returns the values of all counters and gauges.
func SnapshotFixed() (c map[string]uint64, g map[string]int64) {
	hmFixed.Lock()
	defer hmFixed.Unlock()
	gmFixed.Lock()
	defer gmFixed.Unlock()
	cmFixed.Lock()
	defer cmFixed.Unlock()

	for _, init := range initsFixed {
		init()
	}
	c = make(map[string]uint64, len(countersFixed))
	for n, v := range countersFixed {
		c[n] = v
	}
	g = make(map[string]int64, len(gaugesFixed))
	for n, f := range gaugesFixed {
		g[n] = f()
	}
	return
}

// NewHistogramFixed registers a histogram and its percentile gauges.
func NewHistogramFixed(name string) *Histogram {
	hmFixed.Lock()
	defer hmFixed.Unlock()
	if _, ok := histogramsFixed[name]; ok {
		panic(name + " already exists")
	}
	hist := &Histogram{name: name}
	histogramsFixed[name] = hist
	GaugeFixed(name+".P50").SetBatchFunc(hname(name), hist.merge, hist.valueAt(50))
	GaugeFixed(name+".P99").SetBatchFunc(hname(name), hist.merge, hist.valueAt(99))
	return hist
}
