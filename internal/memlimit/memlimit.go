// Package memlimit bounds the heap of a vet-tool process once the package's
// SSA form is built: what the analysis allocates after that is mostly
// short-lived, and with the default pacing the heap would grow to twice the
// SSA's live size before the next collection, setting the process's peak.
package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// enabled is set by Enable, in a process that analyses one package.
var enabled atomic.Bool

// Enable makes AfterSSA act. The lockaudit binary calls it when it runs as
// a vet tool, where each process analyses one package; a program that
// embeds the analyzers (golangci-lint, a checker over many packages) does
// not, and its heap is left alone.
func Enable() { enabled.Store(true) }

// Factor is the soft limit set over the live heap after SSA construction.
// The last collection usually ran while SSA was still being built, so the
// live figure understates what the SSA keeps; 1.85 brings the peak of a
// 400k-line package to about 1.1 times the SSA-only floor for one to three
// more collections (docs/measurements.md). Headroom is never set below
// CurrentFactor times the heap in use at the call, so that it never forces
// a collection at once.
const (
	Factor        = 1.85
	CurrentFactor = 1.05
)

// MinLive is the live heap below which nothing is changed: a small
// package's peak is not worth extra collections.
const MinLive = 256 << 20

// AfterSSA sets a soft memory limit of Factor times the live heap, when
// Enable was called, the live heap is at least MinLive and the user has not
// set GOMEMLIMIT. A
// limit only lowers the collector's goal: the runtime keeps its own guard
// against collecting all the time, so the analysis never fails for it. It
// returns the limit set, or 0.
func AfterSSA() int64 {
	if !enabled.Load() || os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	live, inUse := heapNow()
	return setFor(live, inUse)
}

// Bound sets the limit AfterSSA would, whether or not Enable was called,
// and returns a function that puts the previous limit back. The in-process
// driver calls it once a big package's SSA is built, and undoes it when the
// package is done: it runs one big package at a time among small ones, so
// the limit paces the big one's analysis and is gone before the next.
func Bound() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(-1)
	live, inUse := heapNow()
	if setFor(live, inUse) == 0 {
		return func() {}
	}
	return func() { debug.SetMemoryLimit(prev) }
}

func setFor(live, inUse uint64) int64 {
	if live < MinLive {
		return 0
	}
	limit := int64(max(float64(live)*Factor, float64(inUse)*CurrentFactor))
	if cur := debug.SetMemoryLimit(-1); cur != math.MaxInt64 && cur <= limit {
		return 0 // a tighter limit is already in force
	}
	debug.SetMemoryLimit(limit)
	return limit
}

// heapNow returns the heap the last collection found live, and the bytes
// of heap objects now (live or not yet collected).
func heapNow() (live, inUse uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		inUse = s[1].Value.Uint64()
	}
	return live, inUse
}
