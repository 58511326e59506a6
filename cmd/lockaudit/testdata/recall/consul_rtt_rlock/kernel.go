// Package consul_rtt_rlock reproduces hashicorp/consul PR #2130 ("Fix deadlock in
// Consul RTT"): a recursive read lock four calls deep.
//
// getDatacentersByDistance read-locks remoteLock and, through
// sortDatacentersByDistance and getDatacenterDistance, reaches
// getNodesForDatacenter, which read-locks remoteLock again; when a serf WAN event
// queues a writer between the two RLocks, the second RLock waits for the writer
// and the writer waits for the first RLock. The fix reads the map under the
// caller's lock instead of locking again.
package consul_rtt_rlock

import (
	"math"
	"sort"
	"sync"
)

type Coordinate struct{ Vec [3]float64 }

func (c Coordinate) DistanceTo(o Coordinate) float64 {
	var sum float64
	for i := range c.Vec {
		d := c.Vec[i] - o.Vec[i]
		sum += d * d
	}
	return math.Sqrt(sum)
}

type serverParts struct {
	Name, Datacenter string
	Coord            Coordinate
}

type Server struct {
	localCoord    Coordinate
	remoteLock    sync.RWMutex
	remoteConsuls map[string][]*serverParts
}

// AddRemoteServer is called by the WAN serf event handler on member-join.
func (s *Server) AddRemoteServer(p *serverParts) {
	s.remoteLock.Lock()
	s.remoteConsuls[p.Datacenter] = append(s.remoteConsuls[p.Datacenter], p)
	s.remoteLock.Unlock()
}

// GetDatacentersByDistance backs /v1/catalog/datacenters.
func (s *Server) GetDatacentersByDistance() []string {
	s.remoteLock.RLock()
	defer s.remoteLock.RUnlock()
	dcs := make([]string, 0, len(s.remoteConsuls))
	for dc := range s.remoteConsuls {
		dcs = append(dcs, dc)
	}
	s.sortDatacentersByDistance(dcs)
	return dcs
}

func (s *Server) sortDatacentersByDistance(dcs []string) {
	dist := make(map[string]float64, len(dcs))
	for _, dc := range dcs {
		dist[dc] = s.getDatacenterDistance(dc)
	}
	sort.SliceStable(dcs, func(a, b int) bool { return dist[dcs[a]] < dist[dcs[b]] })
}

func (s *Server) getDatacenterDistance(dc string) float64 {
	servers := s.getNodesForDatacenter(dc)
	if len(servers) == 0 {
		return math.Inf(1)
	}
	var sum float64
	for _, p := range servers {
		sum += s.localCoord.DistanceTo(p.Coord)
	}
	return sum / float64(len(servers))
}

func (s *Server) getNodesForDatacenter(dc string) []*serverParts {
	s.remoteLock.RLock()
	defer s.remoteLock.RUnlock()
	return append([]*serverParts(nil), s.remoteConsuls[dc]...)
}

// ---- fixed twin: the helper reads the map under the caller's read lock ----

func (s *Server) GetDatacentersByDistanceFixed() []string {
	s.remoteLock.RLock()
	defer s.remoteLock.RUnlock()
	dcs := make([]string, 0, len(s.remoteConsuls))
	dist := make(map[string]float64, len(s.remoteConsuls))
	for dc := range s.remoteConsuls {
		dcs = append(dcs, dc)
		dist[dc] = s.getDatacenterDistanceLocked(dc)
	}
	sort.SliceStable(dcs, func(a, b int) bool { return dist[dcs[a]] < dist[dcs[b]] })
	return dcs
}

// getDatacenterDistanceLocked must be called with remoteLock held.
func (s *Server) getDatacenterDistanceLocked(dc string) float64 {
	servers := s.remoteConsuls[dc]
	if len(servers) == 0 {
		return math.Inf(1)
	}
	var sum float64
	for _, p := range servers {
		sum += s.localCoord.DistanceTo(p.Coord)
	}
	return sum / float64(len(servers))
}
