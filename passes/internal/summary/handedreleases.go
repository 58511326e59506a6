package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A function can hand a lock's release to code that runs later: a
// closure it passes to another function, stores or returns releases a
// lock the function captured, itself or from a goroutine it starts.
//
//	var keyWait sync.Mutex
//	keyWait.Lock()
//	svc := New(KeyProvider(func(ctx context.Context) (<-chan cid.Cid, error) {
//		go func() { defer keyWait.Unlock(); ... }() // done sending
//		return ch, nil
//	}))
//	keyWait.Lock() // waits for the provider to finish: a signal
//
// The second Lock waits for that release: the mutex is a signal between
// goroutines, not a lock its taker takes twice.

// maxHandedDepth bounds the closures followed inside a handed closure.
const maxHandedDepth = 3

// ReleasedElsewhere returns the locks of flow's function that other
// goroutines may release: the goroutines it starts, and the closures it
// hands to other code (any use but a call or defer in place), directly or
// from goroutines or closures of their own. The effects are in flow's
// terms.
func (r *Result) ReleasedElsewhere(flow *lockstate.Result) []lockstate.Effect {
	out := r.goReleases(flow)
	for _, mc := range handedClosures(flow.Fn) {
		out = append(out, effectsAt(flow, r.capturedReleases(mc.Fn.(*ssa.Function), 0), nil, mc.Bindings)...)
	}
	return out
}

// goReleases returns the releases that the goroutines flow's function
// starts perform, in its terms.
func (r *Result) goReleases(flow *lockstate.Result) []lockstate.Effect {
	var out []lockstate.Effect
	for _, b := range flow.Fn.Blocks {
		for _, instr := range b.Instrs {
			if g, ok := instr.(*ssa.Go); ok {
				_, released := r.CallEffects(flow, g.Common(), Releases)
				out = append(out, released...)
			}
		}
	}
	return out
}

// handedClosures returns the closures fn makes that are not only called
// or deferred in place (calledInPlace): those the flow of fn already
// follows.
func handedClosures(fn *ssa.Function) []*ssa.MakeClosure {
	var out []*ssa.MakeClosure
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && !calledInPlace(mc) {
				out = append(out, mc)
			}
		}
	}
	return out
}

// capturedReleases returns the releases of captured locks (free
// variables of fn) that fn performs, or that a goroutine fn starts or a
// closure fn hands out performs, in fn's terms.
func (r *Result) capturedReleases(fn *ssa.Function, depth int) []lockstate.Effect {
	var out []lockstate.Effect
	captured := func(effects []lockstate.Effect) {
		for _, e := range effects {
			if e.Lock.Root == lockstate.RootFree {
				out = append(out, e)
			}
		}
	}
	if s := r.SummaryOf(fn); s != nil {
		captured(Releases(s))
	}
	f := r.Func(fn)
	if f == nil || f.Flow == nil || depth >= maxHandedDepth {
		return out
	}
	captured(r.goReleases(f.Flow))
	for _, mc := range handedClosures(fn) {
		captured(effectsAt(f.Flow, r.capturedReleases(mc.Fn.(*ssa.Function), depth+1), nil, mc.Bindings))
	}
	return out
}
