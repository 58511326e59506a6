package precision

import (
	"context"
	"os"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"
)

// A term index rebuilds its shards in parallel while it holds its lock,
// starting the goroutines with a WaitGroup's Go method or an errgroup:
// the group's Wait waits for goroutines the index starts itself. When they
// only compute, the wait lasts as long as the computation, like any work
// done under the lock. Goroutines that take the held lock deadlock, and
// goroutines that write files make it a wait on I/O. Each positive is next
// to its silent twin.

type termIndex struct {
	mu     sync.Mutex
	shards [][]string
	dir    string
	sizes  map[int]int
}

// Rebuild sorts every shard on its own goroutine. Not a finding.
func (x *termIndex) Rebuild() {
	x.mu.Lock()
	defer x.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range x.shards {
		wg.Go(func() { slices.Sort(s) })
	}
	wg.Wait()
}

// RebuildCounted has each goroutine record its shard's size under the
// index's lock, which Rebuild's caller holds: they never finish.
func (x *termIndex) RebuildCounted() {
	x.mu.Lock()
	defer x.mu.Unlock()
	var wg sync.WaitGroup
	for i, s := range x.shards {
		wg.Go(func() {
			slices.Sort(s)
			x.mu.Lock()
			x.sizes[i] = len(s)
			x.mu.Unlock()
		})
	}
	wg.Wait() // want `x.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// Compact dedups every shard on an errgroup's goroutines. Not a finding.
func (x *termIndex) Compact(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	g, ctx := errgroup.WithContext(ctx)
	for i := range x.shards {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			slices.Sort(x.shards[i])
			x.shards[i] = slices.Compact(x.shards[i])
			return nil
		})
	}
	return g.Wait()
}

// Persist writes every shard to its file on an errgroup's goroutines,
// with the lock held across the writes.
func (x *termIndex) Persist(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	g, _ := errgroup.WithContext(ctx)
	for i, s := range x.shards {
		g.Go(func() error {
			return os.WriteFile(x.dir+"/"+string(rune('a'+i)), []byte(s[0]), 0o644)
		})
	}
	return g.Wait() // want `x.mu held across call of errgroup.\(\*Group\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// Reverse reverses every shard on goroutines started with TryGo. Not a
// finding.
func (x *termIndex) Reverse() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var g errgroup.Group
	for _, s := range x.shards {
		g.TryGo(func() error {
			slices.Reverse(s)
			return nil
		})
	}
	return g.Wait()
}

// A group handed where the package cannot follow it can gain goroutines
// out of sight: its Wait may wait for anything they do.

// Warm sorts the shards on the index's own goroutines, then hands the
// group to Prefetch, which other packages call too. Not a join.
func (x *termIndex) Warm(urls []string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var g errgroup.Group
	for _, s := range x.shards {
		g.Go(func() error { slices.Sort(s); return nil })
	}
	Prefetch(&g, urls)
	return g.Wait() // want `x.mu held across call of errgroup.\(\*Group\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// Prefetch fetches each URL on the group: an exported helper, so its
// callers are not all known.
func Prefetch(g *errgroup.Group, urls []string) {
	for _, u := range urls {
		g.Go(func() error {
			_, err := os.ReadFile(u)
			return err
		})
	}
}

// WarmSorted is Warm's twin with an unexported helper that only sorts:
// every Go of the group is the package's. Not a finding.
func (x *termIndex) WarmSorted() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var g errgroup.Group
	sortInto(&g, x.shards)
	return g.Wait()
}

func sortInto(g *errgroup.Group, shards [][]string) {
	for _, s := range shards {
		g.Go(func() error { slices.Sort(s); return nil })
	}
}

// Batch is a pipeline stage whose group is an exported field: code in
// other packages can add goroutines to it.
type Batch struct {
	Group   errgroup.Group
	mu      sync.Mutex
	items   []string
	flushes int
}

// Flush sorts on the batch's group and waits for everything on it,
// whatever other packages started there.
func (b *Batch) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushes++
	b.Group.Go(func() error { slices.Sort(b.items); return nil })
	return b.Group.Wait() // want `b.mu held across call of errgroup.\(\*Group\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// SortEach hands the group's Go on as a func value: what it starts is
// not followed.
func (x *termIndex) SortEach() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var g errgroup.Group
	submit := g.Go
	for _, s := range x.shards {
		submit(func() error { slices.Sort(s); return nil })
	}
	return g.Wait() // want `x.mu held across call of errgroup.\(\*Group\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// newGroup is a seam for tests: a func value that returns a group.
var newGroup = errgroup.WithContext

// CompactVia gets its group through the seam: a call of a func value,
// whose group is not followed.
func (x *termIndex) CompactVia(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	g, _ := newGroup(ctx)
	for _, s := range x.shards {
		g.Go(func() error { slices.Sort(s); return nil })
	}
	return g.Wait() // want `x.mu held across call of errgroup.\(\*Group\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// inRanges runs each range of n items on a goroutine of its own, the last
// on the caller's, with the WaitGroup in a variable the goroutines
// capture.
func inRanges(n, parts int, each func(from, to int)) {
	wg := new(sync.WaitGroup)
	wg.Add(parts - 1)
	for i := range parts {
		from, to := i*n/parts, (i+1)*n/parts
		if i == parts-1 {
			each(from, to)
			break
		}
		go func() {
			each(from, to)
			wg.Done()
		}()
	}
	wg.Wait()
}

// SortRanges sorts the shards in parallel ranges. Not a finding.
func (x *termIndex) SortRanges() {
	x.mu.Lock()
	defer x.mu.Unlock()
	inRanges(len(x.shards), 4, func(from, to int) {
		for _, s := range x.shards[from:to] {
			slices.Sort(s)
		}
	})
}

// inRangesTracked is inRanges that also hands its WaitGroup to Track,
// which other packages call to add goroutines of their own.
func inRangesTracked(n, parts int, each func(from, to int)) {
	wg := new(sync.WaitGroup)
	Track(wg)
	wg.Add(parts)
	for i := range parts {
		go func() {
			each(i*n/parts, (i+1)*n/parts)
			wg.Done()
		}()
	}
	wg.Wait()
}

// Track adds a background flush to wg.
func Track(wg *sync.WaitGroup) {
	wg.Go(func() { _ = os.WriteFile("track", nil, 0o644) })
}

// SortRangesTracked waits for Track's flush too.
func (x *termIndex) SortRangesTracked() {
	x.mu.Lock()
	defer x.mu.Unlock()
	inRangesTracked(len(x.shards), 4, func(from, to int) { // want `x.mu held across call of inRangesTracked, which blocks: inRangesTracked -> sync.\(\*WaitGroup\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
		for _, s := range x.shards[from:to] {
			slices.Sort(s)
		}
	})
}

// A target builder rebuilds its targets on goroutines under its lock,
// each handing a constructor to a helper that calls it. The constructor
// the package's users configure is code the builder does not control;
// the package's own normaliser only computes.
type targetBuilder struct {
	mu      sync.Mutex
	build   func(labels []string) []string
	targets [][]string
}

// NewTargetBuilder returns a builder that makes targets with build.
func NewTargetBuilder(build func(labels []string) []string) *targetBuilder {
	return &targetBuilder{build: build}
}

// applyTo calls f on labels.
func applyTo(f func([]string) []string, labels []string) []string { return f(labels) }

// Rebuild runs the users' constructor on the builder's goroutines while
// it holds the lock.
func (b *targetBuilder) Rebuild(groups [][]string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.targets = make([][]string, len(groups))
	var wg sync.WaitGroup
	for i, labels := range groups {
		wg.Go(func() { b.targets[i] = applyTo(b.build, labels) })
	}
	wg.Wait() // want `b.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// Normalise sorts every group with the package's own normaliser. Not a
// finding.
func (b *targetBuilder) Normalise(groups [][]string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.targets = make([][]string, len(groups))
	var wg sync.WaitGroup
	for i, labels := range groups {
		wg.Go(func() {
			b.targets[i] = applyTo(func(l []string) []string { slices.Sort(l); return l }, labels)
		})
	}
	wg.Wait()
}

// FireHooks run every registered func on a goroutine of its own and wait for
// them all, with the registry locked so that concurrent fires take turns.
// Funcs the package's users register are code it does not control;
// the package's own, which only tidy its tables, are quick.
type FireHooks struct {
	mu    sync.Mutex
	funcs []func()
	fired int
}

// Add registers f to run on each Fire.
func (h *FireHooks) Add(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.funcs = append(h.funcs, f)
}

// Fire runs the registered funcs and waits for them under the lock.
func (h *FireHooks) Fire() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fired++
	wg := sync.WaitGroup{}
	for _, f := range h.funcs {
		wg.Add(1)
		go func(f func()) {
			f()
			wg.Done()
		}(f)
	}
	wg.Wait() // want `h.mu held across call of sync.\(\*WaitGroup\).Wait \(locked at groupjoins.go:\d+, released by defer\)`
}

// tidyHooks are hooks that only the package fills, with funcs that sort
// its tables.
type tidyHooks struct {
	mu    sync.Mutex
	funcs []func()
	fired int
}

func (h *tidyHooks) add(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.funcs = append(h.funcs, f)
}

// fire is Fire's twin. Not a finding.
func (h *tidyHooks) fire() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fired++
	wg := sync.WaitGroup{}
	for _, f := range h.funcs {
		wg.Add(1)
		go func(f func()) {
			f()
			wg.Done()
		}(f)
	}
	wg.Wait()
}

// newTidyHooks sorts the index's shards on every fire.
func newTidyHooks(x *termIndex) *tidyHooks {
	h := &tidyHooks{}
	for _, s := range x.shards {
		h.add(func() { slices.Sort(s) })
	}
	return h
}
