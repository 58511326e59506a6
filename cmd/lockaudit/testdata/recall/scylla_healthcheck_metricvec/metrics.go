// Models scylladb/scylla-manager#2843 (fixed by PR #2846, "healthcheck: fix
// deadlock during removal of lost nodes metrics"): the metric vector's
// Collect (prometheus client_golang's metricMap.Collect, reduced here)
// read-locks the vector and sends every metric on the caller's channel. The
// healthcheck's collect runs Collect in a goroutine into a buffered channel
// and returns the channel; its caller ranges over the channel and deletes the
// metrics of nodes that left the cluster, which write-locks the same vector.
// Once the buffer is full, Collect blocks in the send with the read lock held
// and the deleting reader blocks on the write lock (RWMutex read-held across a
// channel send whose receiver takes the write lock).
package scylla_healthcheck_metricvec

import (
	"sort"
	"strings"
	"sync"
)

// Metric is one sample with its label values.
type Metric struct {
	Labels []string // cluster, host
	Value  float64
}

// GaugeVec is a vector of gauges partitioned by labels.
type GaugeVec struct {
	mtx     sync.RWMutex
	metrics map[string]Metric
}

// NewGaugeVec returns an empty vector.
func NewGaugeVec() *GaugeVec { return &GaugeVec{metrics: map[string]Metric{}} }

func key(lvs []string) string { return strings.Join(lvs, "\xff") }

// Set sets the gauge for the label values.
func (v *GaugeVec) Set(value float64, lvs ...string) {
	v.mtx.Lock()
	defer v.mtx.Unlock()
	v.metrics[key(lvs)] = Metric{Labels: lvs, Value: value}
}

// DeleteLabelValues removes the gauge for the label values.
func (v *GaugeVec) DeleteLabelValues(lvs ...string) bool {
	v.mtx.Lock()
	defer v.mtx.Unlock()
	k := key(lvs)
	_, ok := v.metrics[k]
	delete(v.metrics, k)
	return ok
}

// Collect sends every gauge on ch (the prometheus.Collector contract).
func (v *GaugeVec) Collect(ch chan<- Metric) {
	v.mtx.RLock()
	defer v.mtx.RUnlock()
	keys := make([]string, 0, len(v.metrics))
	for k := range v.metrics {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ch <- v.metrics[k] // read lock held across the send
	}
}

const metricBufferSize = 2

// collect gathers g's metrics in the background. Buggy version.
func collect(g *GaugeVec) chan Metric {
	ch := make(chan Metric, metricBufferSize)
	go func() {
		g.Collect(ch)
		close(ch)
	}()
	return ch
}

// removeLostHosts deletes the gauges of hosts that are no longer in the
// cluster.
func removeLostHosts(g *GaugeVec, cluster string, live map[string]bool) int {
	n := 0
	for m := range collect(g) {
		if m.Labels[0] == cluster && !live[m.Labels[1]] {
			g.DeleteLabelValues(m.Labels...) // BUG: Collect still read-holds g while this waits for the write lock
			n++
		}
	}
	return n
}

// collectFixed is the fixed version: it drains the whole channel before it
// returns, so Collect has released the read lock when the caller deletes.
func collectFixed(g *GaugeVec) []Metric {
	ch := make(chan Metric, metricBufferSize)
	go func() {
		g.Collect(ch)
		close(ch)
	}()
	var ms []Metric
	for m := range ch {
		ms = append(ms, m)
	}
	return ms
}

func removeLostHostsFixed(g *GaugeVec, cluster string, live map[string]bool) int {
	n := 0
	for _, m := range collectFixed(g) {
		if m.Labels[0] == cluster && !live[m.Labels[1]] {
			g.DeleteLabelValues(m.Labels...)
			n++
		}
	}
	return n
}
