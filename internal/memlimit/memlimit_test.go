package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestSetFor(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	if got := setFor(MinLive-1, MinLive); got != 0 {
		t.Errorf("setFor(small live heap) = %d, want 0 (no limit)", got)
	}
	if cur := debug.SetMemoryLimit(-1); cur != math.MaxInt64 {
		t.Errorf("limit after a small heap = %d, want none", cur)
	}
	live := uint64(800 << 20)
	want := int64(float64(live) * Factor)
	if got := setFor(live, live); got != want {
		t.Errorf("setFor(800 MiB live) = %d, want %d", got, want)
	}
	// Far more in use than the last collection found live: the limit
	// leaves headroom over what is in use.
	debug.SetMemoryLimit(math.MaxInt64)
	inUse := uint64(1600 << 20)
	if got, want := setFor(live, inUse), int64(float64(inUse)*CurrentFactor); got != want {
		t.Errorf("setFor(800 MiB live, 1.6 GiB in use) = %d, want %d", got, want)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	if got := setFor(live, live); got != want {
		t.Errorf("setFor(800 MiB live) = %d, want %d", got, want)
	}
	if cur := debug.SetMemoryLimit(-1); cur != want {
		t.Errorf("limit in force = %d, want %d", cur, want)
	}
	// A tighter limit already in force (a user's GOMEMLIMIT, say) stays.
	debug.SetMemoryLimit(want / 2)
	if got := setFor(live, live); got != 0 {
		t.Errorf("setFor under a tighter limit = %d, want 0", got)
	}
	if cur := debug.SetMemoryLimit(-1); cur != want/2 {
		t.Errorf("limit in force = %d, want the tighter %d", cur, want/2)
	}
}

func TestHeapNow(t *testing.T) {
	keep := make([]byte, 8<<20)
	runtime.GC()
	if live, inUse := heapNow(); live < uint64(len(keep)) || inUse < uint64(len(keep)) {
		t.Errorf("heapNow() = %d live, %d in use; want both at least the %d bytes kept live", live, inUse, len(keep))
	}
	runtime.KeepAlive(keep)
}

// TestBound checks that Bound sets a limit over a big live heap and that
// its restore puts the previous one back.
func TestBound(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "") // Bound leaves a limit the user set alone
	keep := make([]byte, MinLive+(16<<20))
	for i := range keep {
		keep[i] = 1 // make it resident
	}
	runtime.GC()
	restore := Bound()
	if cur := debug.SetMemoryLimit(-1); cur == math.MaxInt64 {
		t.Errorf("no limit over a live heap of %d bytes", len(keep))
	}
	restore()
	if cur := debug.SetMemoryLimit(-1); cur != math.MaxInt64 {
		t.Errorf("limit after restore = %d, want none", cur)
	}
	runtime.KeepAlive(keep)
}
