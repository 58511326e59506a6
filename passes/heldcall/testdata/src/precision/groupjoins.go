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
