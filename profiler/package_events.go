package profiler

import (
	"time"

	"github.com/google/pprof/profile"
)

// A PackageStatus says how far the profiling of one package got.
type PackageStatus string

// The statuses of a PackageEvent. Building is the only one that is not
// final: it says that a build is slow, and is sent at most once per
// package.
const (
	StatusBuilding    PackageStatus = "building" // still building after TestOptions.SlowBuild
	StatusOK          PackageStatus = "ok"       // tests passed, profiles recorded
	StatusFailed      PackageStatus = "FAIL"     // tests failed; the profiles they wrote are kept
	StatusBuildFailed PackageStatus = "build failed"
	StatusTimedOut    PackageStatus = "timeout"     // the package exceeded its -timeout budget: what finished is kept
	StatusInterrupted PackageStatus = "interrupted" // stopped (or never started) by the interrupt
	StatusNoTestFiles PackageStatus = "no test files"
	StatusNoTests     PackageStatus = "no tests" // the binary passed but wrote no profile (a TestMain that exits early)
)

// Finished reports whether the package's profiles made it into the
// collection: its tests ran to the end, passing or failing.
func (s PackageStatus) Finished() bool { return s == StatusOK || s == StatusFailed }

// A PackageEvent reports on one package of CollectTests.
type PackageEvent struct {
	Package string
	Status  PackageStatus
	// Elapsed is the test binary's wall time, or for StatusBuilding the
	// build's time so far.
	Elapsed time.Duration
	// Mutex and Block are the contention delays the run's profiles
	// recorded, harness waits left out (as in the report's totals).
	Mutex, Block time.Duration
	// Message says why, when the status is not ok.
	Message string
}

// defaultSlowBuild is when a build is reported as slow.
const defaultSlowBuild = 5 * time.Second

// contentionDelay returns the delay a contention profile of kind recorded
// outside the test harness (and, for mutex, outside the runtime's own
// locks), the quantity the report ranks.
func contentionDelay(kind Kind, p *profile.Profile) time.Duration {
	if p == nil || !isContention(p) {
		return 0
	}
	var total int64
	for _, s := range p.Sample {
		if len(s.Value) < 2 || s.Value[1] <= 0 {
			continue
		}
		frames := stack(s)
		if _, ok := hotspotFrame(frames); ok && (kind != Mutex || !runtimeInternal(frames)) {
			total += s.Value[1]
		}
	}
	return time.Duration(total)
}
