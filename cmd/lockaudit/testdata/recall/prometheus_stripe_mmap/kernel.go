// Package prometheus_stripe_mmap reproduces prometheus/prometheus#19445 (fixed by
// PR #19460): "deadlock on stripeSeries due to lock ordering" in the TSDB head.
//
// Head GC holds a series' own mutex and then write-locks the stripe that indexes
// the series by ref, while the background mmap loop read-locks that stripe and then
// takes each series' mutex; when Mimir runs CompactSelectedSeries on its own
// goroutine the two meet on one series and the head wedges. The fix makes the mmap
// loop snapshot the stripe under the read lock and lock series only after
// releasing it.
package prometheus_stripe_mmap

import "sync"

const stripeSize = 16

type memSeries struct {
	sync.Mutex
	ref        uint64
	headChunks int
	mmapped    int
}

type stripeLock struct {
	sync.RWMutex
	_ [40]byte // cache-line padding, as in Prometheus
}

type stripeSeries struct {
	series [stripeSize]map[uint64]*memSeries // by series ref
	hashes [stripeSize]map[uint64]*memSeries // by label hash
	locks  [stripeSize]stripeLock
}

// gcSeries drops series without head chunks from one hash stripe; it is reached
// from truncateSeries, which Mimir calls from its own goroutine.
func (s *stripeSeries) gcSeries(hashShard int) {
	s.locks[hashShard].Lock()
	defer s.locks[hashShard].Unlock()
	for hash, series := range s.hashes[hashShard] {
		series.Lock()
		if series.headChunks == 0 {
			refShard := int(series.ref % stripeSize)
			if refShard != hashShard {
				s.locks[refShard].Lock()
			}
			delete(s.series[refShard], series.ref)
			if refShard != hashShard {
				s.locks[refShard].Unlock()
			}
			delete(s.hashes[hashShard], hash)
		}
		series.Unlock()
	}
}

func mmapSeriesChunks(series *memSeries) {
	series.Lock()
	series.mmapped += series.headChunks
	series.headChunks = 0
	series.Unlock()
}

// mmapHeadChunksInStripe runs on the DB's background loop for every stripe.
func (s *stripeSeries) mmapHeadChunksInStripe(i int) {
	s.locks[i].RLock()
	defer s.locks[i].RUnlock()
	for _, series := range s.series[i] {
		mmapSeriesChunks(series)
	}
}

func (s *stripeSeries) MmapHeadChunks() {
	for i := 0; i < stripeSize; i++ {
		s.mmapHeadChunksInStripe(i)
	}
}

// ---- fixed twin: snapshot the stripe, then lock series without the stripe ----

func (s *stripeSeries) mmapHeadChunksInStripeFixed(i int) {
	s.locks[i].RLock()
	snapshot := make([]*memSeries, 0, len(s.series[i]))
	for _, series := range s.series[i] {
		snapshot = append(snapshot, series)
	}
	s.locks[i].RUnlock()
	for _, series := range snapshot {
		mmapSeriesChunks(series)
	}
}

func (s *stripeSeries) MmapHeadChunksFixed() {
	for i := 0; i < stripeSize; i++ {
		s.mmapHeadChunksInStripeFixed(i)
	}
}
