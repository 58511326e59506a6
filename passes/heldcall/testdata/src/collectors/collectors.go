// Package collectors holds Prometheus collectors that take their own locks
// while they send their samples: the registry drains the channel it hands
// Collect while the collectors run, so those sends are hand-offs. A send
// on the package's own unbuffered channel under the same lock is a wait.
package collectors

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// ConnStats counts connections per peer and exports them.
type ConnStats struct {
	mu    sync.RWMutex
	peers map[string]float64
	desc  *prometheus.Desc

	updates chan string // made unbuffered by NewConnStats: a watcher waits on it
}

// NewConnStats returns empty statistics.
func NewConnStats() *ConnStats {
	return &ConnStats{
		peers:   map[string]float64{},
		desc:    prometheus.NewDesc("conns", "connections per peer", []string{"peer"}, nil),
		updates: make(chan string),
	}
}

// Describe sends the one description. Not a finding.
func (s *ConnStats) Describe(ch chan<- *prometheus.Desc) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ch <- s.desc
}

// Collect sends a sample per peer under the read lock. Not a finding.
func (s *ConnStats) Collect(ch chan<- prometheus.Metric) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, n := range s.peers {
		ch <- prometheus.MustNewConstMetric(s.desc, n)
	}
}

// Add counts a connection and tells the watcher, still holding the lock:
// the watcher's receive is a wait every other Add and Collect queues
// behind.
func (s *ConnStats) Add(peer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peers[peer]++
	s.updates <- peer // want `s.mu held across channel send \(locked at collectors.go:\d+, released by defer\)`
}

// Updates is the watcher's side.
func (s *ConnStats) Updates() <-chan string { return s.updates }
