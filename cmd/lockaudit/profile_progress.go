package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/profiler"
)

// A packageLog prints one line per profiled package as it ends, the way go
// test does, on any stderr (a terminal or a CI log), and remembers which
// packages finished for the summary of an interrupted run.
type packageLog struct {
	w io.Writer

	mu         sync.Mutex
	finished   int
	unfinished []string
}

func newPackageLog(w io.Writer) *packageLog { return &packageLog{w: w} }

// print writes ev's line. CollectTests serialises its calls; the log's own
// lock guards only its counts.
func (l *packageLog) print(ev profiler.PackageEvent) {
	l.mu.Lock()
	switch {
	case ev.Status.Finished():
		l.finished++
	case ev.Status == profiler.StatusTimedOut || ev.Status == profiler.StatusInterrupted:
		l.unfinished = append(l.unfinished, ev.Package)
	}
	l.mu.Unlock()
	if line := packageLine(ev); line != "" {
		// Best effort, like any progress: a failed write is not an error
		// of the run.
		_, _ = io.WriteString(l.w, line+"\n")
	}
}

// summary says how much of an interrupted run finished and names the
// packages that did not.
func (l *packageLog) summary() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.unfinished) == 0 {
		return fmt.Sprintf("the report holds the %d package(s) that finished", l.finished)
	}
	names := slices.Sorted(slices.Values(l.unfinished))
	return fmt.Sprintf("the report holds the %d package(s) that finished; %d did not: %s",
		l.finished, len(names), strings.Join(names, ", "))
}

// packageLine formats one event, tab-separated like go test's summary
// lines: status, package, wall time, then the contention recorded.
func packageLine(ev profiler.PackageEvent) string {
	delays := fmt.Sprintf("mutex %v, block %v", roundDelay(ev.Mutex), roundDelay(ev.Block))
	elapsed := fmt.Sprintf("%.3fs", ev.Elapsed.Seconds())
	switch ev.Status {
	case profiler.StatusBuilding:
		return fmt.Sprintf("lockaudit: still building %s after %v", ev.Package, ev.Elapsed.Round(time.Second))
	case profiler.StatusOK:
		return "ok  \t" + ev.Package + "\t" + elapsed + "\t" + delays
	case profiler.StatusFailed:
		return "FAIL\t" + ev.Package + "\t" + elapsed + "\t" + delays + "\t(" + ev.Message + ")"
	case profiler.StatusTimedOut:
		return "FAIL\t" + ev.Package + "\t" + elapsed + "\t(" + ev.Message + ")"
	case profiler.StatusBuildFailed:
		return "FAIL\t" + ev.Package + " [build failed]"
	case profiler.StatusInterrupted:
		return "FAIL\t" + ev.Package + " [not finished: interrupted]"
	case profiler.StatusNoTestFiles:
		return "?   \t" + ev.Package + "\t[no test files]"
	case profiler.StatusNoTests:
		return "?   \t" + ev.Package + "\t[" + ev.Message + "]"
	}
	return ""
}

// roundDelay keeps three significant digits of a delay.
func roundDelay(d time.Duration) time.Duration {
	for r := time.Duration(1); r < time.Hour; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
	return d.Round(time.Second)
}
