package profiler

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/pprof/profile"
)

// An Error is something that could not be collected: a package that did
// not build or whose tests failed, a URL that did not answer, a file that
// is not a profile. Source is the package's import path, the URL or the
// file name (the JSON key is "package", as in lockaudit check's report).
type Error struct {
	Source  string `json:"package"`
	Message string `json:"message"`
}

// A Collection is what the collectors gathered: profiles by kind, the
// sources they came from, and errors. It is safe for concurrent use.
type Collection struct {
	mu       sync.Mutex
	profiles map[Kind][]*profile.Profile
	sources  []string
	errors   []Error
	waits    *waitSet // sync waits from execution traces, all merged
	traces   int      // execution traces read
	capped   []string // sources whose trace was cut at the size cap
	benches  []BenchResult
}

// NewCollection returns an empty collection.
func NewCollection() *Collection {
	return &Collection{profiles: make(map[Kind][]*profile.Profile)}
}

// add records a profile of kind from source.
func (c *Collection) add(kind Kind, p *profile.Profile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.profiles[kind] = append(c.profiles[kind], p)
}

// addSource records a package, URL or file that contributed profiles.
func (c *Collection) addSource(source string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sources = append(c.sources, source)
}

// addError records an error of source.
func (c *Collection) addError(source string, format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errors = append(c.errors, Error{Source: source, Message: oneLine(fmt.Sprintf(format, args...))})
}

// addWaits records the sync waits of source's execution trace.
func (c *Collection) addWaits(source string, set *waitSet, capped bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waits == nil {
		c.waits = newWaitSet()
	}
	c.waits.merge(set)
	c.traces++
	if capped {
		c.capped = append(c.capped, source)
	}
}

// AddError records an error found outside the collectors, such as a failed
// static analysis, so that it appears in the report.
func (c *Collection) AddError(source, message string) { c.addError(source, "%s", message) }

// Sources returns the packages, URLs and files that contributed profiles,
// sorted and without duplicates.
func (c *Collection) Sources() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := slices.Clone(c.sources)
	slices.Sort(s)
	return slices.Compact(s)
}

// Errors returns the errors, sorted by source and message.
func (c *Collection) Errors() []Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sortErrors(slices.Clone(c.errors))
}

// Count returns the number of profiles of kind.
func (c *Collection) Count(kind Kind) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.profiles[kind])
}

// Merge merges the profiles of each kind into one, never mixing kinds. The
// result has an entry for every kind that has at least one profile; a
// merge failure (profiles of one kind that pprof finds incompatible)
// becomes an error of the collection and leaves the kind out.
func (c *Collection) Merge() map[Kind]*profile.Profile {
	c.mu.Lock()
	byKind := make(map[Kind][]*profile.Profile, len(c.profiles))
	for k, ps := range c.profiles {
		byKind[k] = slices.Clone(ps)
	}
	c.mu.Unlock()
	merged := make(map[Kind]*profile.Profile)
	for _, k := range kinds {
		ps := byKind[k]
		if len(ps) == 0 {
			continue
		}
		// profile.Merge keeps the first profile's period, sample types and
		// comments; give it a fixed order so the output does not depend
		// on which collector finished first.
		slices.SortStableFunc(ps, func(a, b *profile.Profile) int { return cmp.Compare(a.TimeNanos, b.TimeNanos) })
		m, err := profile.Merge(ps)
		if err != nil {
			c.addError(string(k), "merging %d %s profiles: %v", len(ps), k, err)
			continue
		}
		merged[k] = m
	}
	return merged
}

// sortErrors orders errors by source and message and removes duplicates.
func sortErrors(errs []Error) []Error {
	slices.SortStableFunc(errs, func(a, b Error) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(errs)
}

// waitSites returns the wait sites of the traces read, worst p99 first,
// how many traces there were, and the sources whose trace was capped.
func (c *Collection) waitSites(paths pathFunc) ([]*WaitSite, int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sites := []*WaitSite{}
	if c.waits != nil {
		sites = c.waits.sitesByTail(paths)
	}
	capped := slices.Clone(c.capped)
	slices.Sort(capped)
	return sites, c.traces, capped
}

// addBenchResults records benchmark results of a test binary's output.
func (c *Collection) addBenchResults(rs []BenchResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.benches = append(c.benches, rs...)
}

// benchResults returns the benchmark results, by package and name.
func (c *Collection) benchResults() []BenchResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	rs := slices.Clone(c.benches)
	slices.SortStableFunc(rs, func(a, b BenchResult) int { return strings.Compare(a.Package+" "+a.Name, b.Package+" "+b.Name) })
	return rs
}
