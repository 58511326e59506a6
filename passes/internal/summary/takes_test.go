package summary

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// TestTakeChanges checks that takeChanges, which combine asks before it
// rebases a callee's lock, answers what addTake then does, on random
// summaries: same and different keys, modes, conditions, released locks,
// and full summaries.
func TestTakeChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prefixes := []string{"p0", "p0.st", "p1", "f0", "g:pkg.reg"}
	paths := []string{"", ".mu", ".st.mu", ".shards[?].mu"}
	roots := []lockstate.RootKind{lockstate.RootParam, lockstate.RootFree, lockstate.RootGlobal}
	conds := []lockstate.Cond{{Param: 1, Value: true}, {Param: 2, Path: ".closed"}, {Param: -1, Nil: true}}
	classes := []string{"(*pkg.T).mu", "(*pkg.U).mu"}
	pickConds := func() []lockstate.Cond {
		var out []lockstate.Cond
		for _, c := range conds {
			if rng.IntN(3) == 0 {
				out = append(out, c)
			}
		}
		return out
	}
	pickClasses := func() []string {
		var out []string
		for _, c := range classes {
			if rng.IntN(3) == 0 {
				out = append(out, c)
			}
		}
		return out
	}
	var changed, unchanged int
	for range 20000 {
		s := &Summary{}
		for range rng.IntN(maxTakes + 3) {
			p, q := prefixes[rng.IntN(len(prefixes))], paths[rng.IntN(len(paths))]
			s.addTake(lockstate.Effect{Lock: lockstate.ID{Key: p + q, Root: roots[rng.IntN(len(roots))]},
				Mode: lockstate.Mode(rng.IntN(2)), When: pickConds(), Outside: pickClasses()})
		}
		prefix, path := prefixes[rng.IntN(len(prefixes))], paths[rng.IntN(len(paths))]
		root := roots[rng.IntN(len(roots))]
		mode := lockstate.Mode(rng.IntN(2))
		when, outside := pickConds(), pickClasses()

		want := s.takeChanges(prefix, path, root, mode, when, outside)
		before := slices.Clone(s.Takes)
		got := s.addTake(lockstate.Effect{Lock: lockstate.ID{Key: prefix + path, Root: root}, Mode: mode, When: when, Outside: outside})
		if got != want {
			t.Fatalf("takeChanges(%q, %q, %v, %v, %v, %v) = %v, addTake = %v on %+v", prefix, path, root, mode, when, outside, want, got, before)
		}
		if !got && !slices.EqualFunc(before, s.Takes, func(a, b lockstate.Effect) bool {
			return a.Lock.Key == b.Lock.Key && a.Mode == b.Mode && slices.Equal(a.When, b.When) && slices.Equal(a.Outside, b.Outside)
		}) {
			t.Fatalf("addTake changed the summary and reported no change")
		}
		if got {
			changed++
		} else {
			unchanged++
		}
	}
	if changed < 1000 || unchanged < 1000 {
		t.Fatalf("%d changes, %d not: the cases are lopsided", changed, unchanged)
	}
}
