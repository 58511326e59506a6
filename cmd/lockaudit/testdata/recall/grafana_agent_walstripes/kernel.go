// Package grafana_agent_walstripes reproduces grafana/agent#184 (fixed by PR
// #185): "Possible deadlock while truncating the WAL and adding a new series".
//
// The agent's WAL series map is striped twice, by ref and by label hash, and the
// hash index stores only a ref: GC write-locks a ref stripe and then the hash
// stripe of each dead series, while Appender.Add read-locks a hash stripe and then
// the ref stripe it points to, so the two take the same pair of stripe locks in
// opposite orders. The fix makes the hash index point at the series itself, so
// a lookup holds a single stripe lock.
package grafana_agent_walstripes

import (
	"hash/fnv"
	"sync"
)

const stripes = 64

type memSeries struct {
	ref    uint64
	lset   string
	lastTs int64
}

func hashOf(lset string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(lset))
	return h.Sum64()
}

type stripeSeries struct {
	series [stripes]map[uint64]*memSeries // by ref
	hashes [stripes]map[uint64]uint64     // label hash -> ref
	locks  [stripes]sync.RWMutex
}

// GetByHash is called by Appender.Add for every sample.
func (s *stripeSeries) GetByHash(hash uint64) *memSeries {
	i := hash % stripes
	s.locks[i].RLock()
	defer s.locks[i].RUnlock()
	ref, ok := s.hashes[i][hash]
	if !ok {
		return nil
	}
	j := ref % stripes
	if j != i {
		s.locks[j].RLock()
		defer s.locks[j].RUnlock()
	}
	return s.series[j][ref]
}

// gc runs on WAL truncation and drops series not written since mint.
func (s *stripeSeries) gc(mint int64) int {
	deleted := 0
	for j := uint64(0); j < stripes; j++ {
		s.locks[j].Lock()
		for ref, series := range s.series[j] {
			if series.lastTs >= mint {
				continue
			}
			hash := hashOf(series.lset)
			i := hash % stripes
			if i != j {
				s.locks[i].Lock()
			}
			delete(s.hashes[i], hash)
			if i != j {
				s.locks[i].Unlock()
			}
			delete(s.series[j], ref)
			deleted++
		}
		s.locks[j].Unlock()
	}
	return deleted
}

// ---- fixed twin: the hash index points at the series ----

type stripeSeriesFixed struct {
	series [stripes]map[uint64]*memSeries
	hashes [stripes]map[uint64]*memSeries
	locks  [stripes]sync.RWMutex
}

func (s *stripeSeriesFixed) GetByHashFixed(hash uint64) *memSeries {
	i := hash % stripes
	s.locks[i].RLock()
	series := s.hashes[i][hash]
	s.locks[i].RUnlock()
	return series
}

// gcFixed still takes the ref stripe and then the hash stripe, as upstream does;
// it is the only function that holds two stripes, so no cycle remains.
func (s *stripeSeriesFixed) gcFixed(mint int64) int {
	deleted := 0
	for j := uint64(0); j < stripes; j++ {
		s.locks[j].Lock()
		for ref, series := range s.series[j] {
			if series.lastTs < mint {
				hash := hashOf(series.lset)
				if i := hash % stripes; i != j {
					s.locks[i].Lock()
					delete(s.hashes[i], hash)
					s.locks[i].Unlock()
				} else {
					delete(s.hashes[i], hash)
				}
				delete(s.series[j], ref)
				deleted++
			}
		}
		s.locks[j].Unlock()
	}
	return deleted
}
