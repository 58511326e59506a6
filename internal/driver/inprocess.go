package driver

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/lockaudit/lockaudit/internal/report"
)

// The in-process driver analyses every unit in this process: go list
// compiles the packages (or finds them in the build cache) for their export
// data, and each unit is parsed and type-checked from source against its
// imports' export data, analysed, and dropped, keeping only its facts.
// Units run in parallel, each after the units whose facts it reads.
//
// Which units run:
//   - each package the patterns name, or in its place its test variant
//     ("p [p.test]", which includes the package's own files), and its
//     external test package ("p_test [p.test]"): these report;
//   - every package they depend on, for its facts only.
//
// A dependency recompiled for a test ("q [p.test]", when q imports p) is
// type-checked as such when a test imports it, but its facts are those of
// q itself, which differ only by p's test files, which q cannot call.

// A job is one unit to analyse.
type job struct {
	u          *unit
	report     bool            // a unit the patterns name: its diagnostics are wanted
	providers  map[string]*job // the jobs whose facts it reads, by package path
	dependents []*job
	waiting    int // providers not done yet

	// Set when the job is done.
	facts  *frozenFacts
	failed bool     // it did not compile, or depends on a unit that did not
	key    cacheKey // its result's key in the cache, if hasKey
	hasKey bool
	big    bool              // it has bigUnitBytes of source or more (schedule.go)
	src    map[string][]byte // its files as the cache key hashed them, by name
}

// planJobs returns the jobs for the listed units, dependencies first.
func planJobs(l *unitList) []*job {
	roots := make(map[string]bool) // unit IDs that report
	for _, u := range l.units {
		if u.DepOnly || u.testMain(l.byID) {
			continue
		}
		if u.ForTest == "" && l.byID[u.ImportPath+" ["+u.ImportPath+".test]"] != nil {
			continue // its test variant reports for it
		}
		roots[u.ImportPath] = true
	}
	// provider returns the unit whose facts stand for dependency id.
	provider := func(id string) string {
		if roots[id] || !strings.Contains(id, " [") {
			return id
		}
		if plain := packageOfID(id); l.byID[plain] != nil {
			return plain
		}
		return id
	}
	jobs := make(map[string]*job)
	var order []*job
	var add func(id string) *job
	add = func(id string) *job {
		if j, ok := jobs[id]; ok {
			return j
		}
		u := l.byID[id]
		if u == nil {
			return nil
		}
		j := &job{u: u, report: roots[id], providers: make(map[string]*job)}
		jobs[id] = j
		for _, dep := range u.Deps {
			if p := packageOfID(dep); p == "unsafe" || p == "C" { // "unsafe [example.com/cmd]" under PGO
				continue
			}
			if p := add(provider(dep)); p != nil && p != j {
				j.providers[packageOfID(dep)] = p
			}
		}
		order = append(order, j)
		return j
	}
	for _, u := range l.units {
		if roots[u.ImportPath] {
			add(u.ImportPath)
		}
	}
	for _, j := range order {
		seen := make(map[*job]bool)
		for _, p := range j.providers {
			if !seen[p] {
				seen[p] = true
				p.dependents = append(p.dependents, j)
				j.waiting++
			}
		}
	}
	return order
}

// runInProcess analyses the jobs with the plan's analyzers, at most GOMAXPROCS at
// a time and one big one at a time (schedule.go). Once ctx is cancelled it
// returns nil at once, and the jobs left are passed over.
func runInProcess(ctx context.Context, l *unitList, jobs []*job, plan *analyzerPlan, cache *resultCache, t *target) *vetResult {
	exports := make(map[string]string, len(l.units))
	for _, u := range l.units {
		exports[u.ImportPath] = u.Export
	}
	res := &vetResult{failed: make(map[string]bool)}
	q := newJobQueue(jobs)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(jobs), 1)) {
		wg.Go(func() {
			shared := newImportView()
			for j := q.next(); j != nil; j = q.next() {
				r := cachedJob(ctx, j, exports, plan, cache, shared, t)
				q.done(j, func() {
					j.facts = r.facts
					res.diags = append(res.diags, r.diags...)
					res.errors = append(res.errors, r.errs...)
					if r.failed {
						j.failed = true
						if len(r.errs) > 0 {
							// What depends on it is "not analysed"; a unit
							// go list could not load was reported with
							// its dependents by the listing.
							res.failed[j.u.path()] = true
						}
					}
				})
			}
		})
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
		return res
	case <-ctx.Done():
		// The analyzers do not watch ctx, and a big unit can take many
		// seconds: the run ends now, its workers with the process.
		// Nothing of theirs is kept, nor written to the cache.
		cache.close()
		return nil
	}
}

// cachedJob returns j's result from the cache, or analyses j and stores
// its result there.
func cachedJob(ctx context.Context, j *job, exports map[string]string, plan *analyzerPlan, cache *resultCache, shared *importView, t *target) unitResult {
	if r, skip := skipped(ctx, j); skip {
		return r
	}
	j.key, j.hasKey = cache.key(j, exports)
	if j.hasKey {
		if r, ok := cache.get(j.key); ok {
			return r
		}
	}
	r := analyseJob(ctx, j, exports, plan, shared, t)
	if j.hasKey && ctx.Err() == nil {
		cache.put(j.key, r)
	}
	return r
}

// skipped returns the result of a unit that is not analysed (nor cached):
// one that did not compile reports its compiler errors; one go list could
// not load was reported by the listing; one that depends on a failed unit
// (the queue marks it) or comes after an interrupt has none.
func skipped(ctx context.Context, j *job) (unitResult, bool) {
	switch {
	case j.u.compileErr != nil:
		return unitResult{errs: compileErrors(j.u), failed: true}, true
	case j.u.loadFailed():
		return unitResult{failed: true}, true
	case j.failed || ctx.Err() != nil:
		return unitResult{}, true
	}
	return unitResult{}, false
}

// analyseJob type-checks and analyses one unit.
func analyseJob(ctx context.Context, j *job, exports map[string]string, plan *analyzerPlan, shared *importView, t *target) (res unitResult) {
	defer func() {
		// runPass recovers the analyzers' panics; this is for the type
		// checker's and the export data reader's.
		if r := recover(); r != nil {
			res = unitResult{errs: []report.PackageError{{Package: j.u.path(),
				Message: fmt.Sprintf("internal error: panic: %v (%s)", r, panicSite(debug.Stack()))}}, failed: true}
		}
	}()
	if len(j.u.CompiledGoFiles) == 0 {
		return unitResult{} // nothing to check (its key still stands for its dependents)
	}
	view := shared
	if !j.u.plainDeps() {
		view = newImportView()
	}
	c, err := typeCheck(j.u, j.src, exports, view, t)
	j.src = nil
	if err != nil {
		return unitResult{errs: []report.PackageError{{Package: j.u.path(), Message: report.OneLine(err.Error())}}, failed: true}
	}
	providers := make(map[string]*frozenFacts, len(j.providers))
	for path, p := range j.providers {
		if p.facts != nil {
			providers[path] = p.facts
		}
	}
	return runAnalyzers(ctx, j.u, c, plan, providers, j.report, j.big)
}
