package profiler

import (
	"fmt"
	"time"
)

// FailOver returns a message for each hotspot whose delay exceeds limit:
// the -fail-over gate. The report's hotspots are ranked, so the first of
// each kind decides; all that exceed are listed.
func (r *Report) FailOver(limit time.Duration) []string {
	var msgs []string
	for _, h := range r.Hotspots {
		if h.DelayNS > limit.Nanoseconds() {
			msgs = append(msgs, fmt.Sprintf("%s hotspot #%d %s (%s:%d) delayed %s, over -fail-over %v",
				h.Kind, h.Rank, shortName(h.Function), h.File, h.Line, duration(float64(h.DelayNS)), limit))
		}
	}
	return msgs
}

// ContentionGrowth compares the report's total contention (mutex plus
// block delay) with a baseline report's: the -baseline/-max-increase gate.
// It returns a message if the total grew by more than maxIncrease percent,
// or from zero to anything.
func (r *Report) ContentionGrowth(base *Report, maxIncrease float64) (string, bool) {
	was := base.TotalDelayNS.Mutex + base.TotalDelayNS.Block
	now := r.TotalDelayNS.Mutex + r.TotalDelayNS.Block
	switch {
	case was == 0 && now == 0:
		return "", false
	case was == 0:
		return fmt.Sprintf("total contention grew from 0 to %s (-max-increase %g%%)", duration(float64(now)), maxIncrease), true
	}
	growth := 100 * (float64(now) - float64(was)) / float64(was)
	if growth > maxIncrease {
		return fmt.Sprintf("total contention grew %.1f%%, from %s to %s (mutex %s -> %s, block %s -> %s), over -max-increase %g%%",
			growth, duration(float64(was)), duration(float64(now)),
			duration(float64(base.TotalDelayNS.Mutex)), duration(float64(r.TotalDelayNS.Mutex)),
			duration(float64(base.TotalDelayNS.Block)), duration(float64(r.TotalDelayNS.Block)), maxIncrease), true
	}
	return "", false
}
