package precision

import "testing"

// A benchmark drives the lazy group by hand, marking its own group done
// on the benchmark's goroutine: no evidence about the groups the tree's
// rehash waits for, whose only Done is in the workers it starts.
func BenchmarkLazyWaitGroup(b *testing.B) {
	for range b.N {
		var wg lazyWaitGroup
		wg.Add(1)
		wg.wg.Done()
		wg.Wait()
	}
}
