package summary

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// refAddTake is addTake as it was before takeChanges was split out of it.
func refAddTake(s *Summary, t lockstate.Effect) bool {
	for i, o := range s.Takes {
		if o.Lock.Key != t.Lock.Key || o.Mode != t.Mode {
			continue
		}
		weaker := len(o.When) > 0 && !subset(o.When, t.When) && subset(t.When, o.When)
		fewer := len(o.Outside) > 0 && subset(t.Outside, o.Outside) && !subset(o.Outside, t.Outside)
		if weaker || fewer {
			if weaker {
				s.Takes[i].When = t.When
			}
			if fewer {
				s.Takes[i].Outside = t.Outside
			}
			return true
		}
		return false
	}
	n := 0 // the takes in t's room: the Onces', or the locks'
	for _, o := range s.Takes {
		if (o.Mode == lockstate.Once) == (t.Mode == lockstate.Once) {
			n++
		}
	}
	if t.Mode == lockstate.Once && n >= maxOnceTakes || t.Mode != lockstate.Once && (n >= maxTakes || t.Lock.Root == lockstate.RootGlobal && n >= maxTakes/2) {
		return false
	}
	t.Lock.Arg, t.Lock.ArgPath = 0, ""
	s.Takes = append(s.Takes, t)
	return true
}

// refAddBlock is addBlock as it was before blockEffect was split out of it.
func refAddBlock(s *Summary, r *Reason) bool {
	for i, b := range s.Blocks {
		if subset(b.When, r.When) {
			same := subset(r.When, b.When)
			if b.releases() != r.releases() {
				// One made with all the caller's locks held blocks
				// callers the other does not.
				if !r.releases() && same {
					s.Blocks[i] = r
					return true
				}
				if !r.releases() {
					continue
				}
				return false
			}
			if same && (b.Guarded && !r.Guarded || b.Guarded == r.Guarded && (r.strength() > b.strength() || r.strength() == b.strength() && len(r.Chain) < len(b.Chain))) {
				s.Blocks[i] = r
				return true
			}
			return false
		}
	}
	kept := s.Blocks[:0:0]
	for _, b := range s.Blocks {
		if !subset(r.When, b.When) || r.releases() && !b.releases() {
			kept = append(kept, b)
		}
	}
	if len(kept) >= maxBlocks {
		return false
	}
	s.Blocks = append(kept, r)
	return true
}

func equalTakes(a, b []lockstate.Effect) bool {
	return slices.EqualFunc(a, b, func(x, y lockstate.Effect) bool {
		return x.Lock == y.Lock && x.Mode == y.Mode && slices.Equal(x.When, y.When) && slices.Equal(x.Outside, y.Outside)
	})
}

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
				Mode: lockstate.Mode(rng.IntN(3)), When: pickConds(), Outside: pickClasses()})
		}
		prefix, path := prefixes[rng.IntN(len(prefixes))], paths[rng.IntN(len(paths))]
		root := roots[rng.IntN(len(roots))]
		mode := lockstate.Mode(rng.IntN(3)) // Write, Read or Once
		when, outside := pickConds(), pickClasses()

		want := s.takeChanges(prefix, path, root, mode, when, outside)
		before := slices.Clone(s.Takes)
		ref := &Summary{Takes: slices.Clone(s.Takes)}
		e := lockstate.Effect{Lock: lockstate.ID{Key: prefix + path, Root: root, Arg: 1, ArgPath: ".x"}, Mode: mode, When: when, Outside: outside}
		got := s.addTake(e)
		if got != want {
			t.Fatalf("takeChanges(%q, %q, %v, %v, %v, %v) = %v, addTake = %v on %+v", prefix, path, root, mode, when, outside, want, got, before)
		}
		if refGot := refAddTake(ref, e); refGot != got || !equalTakes(ref.Takes, s.Takes) {
			t.Fatalf("addTake(%+v) on %+v: %v, %+v; before takeChanges: %v, %+v", e, before, got, s.Takes, refGot, ref.Takes)
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

// TestBlockEffect checks that blockEffect, which mergeBlocks asks before it
// extends a callee's reason, answers what addBlock then does, and that
// addBlock does what it did before, on random summaries.
func TestBlockEffect(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	conds := []lockstate.Cond{{Param: 1, Value: true}, {Param: 2, Path: ".closed"}, {Param: -1, Nil: true}, {Param: 0, Path: ".n", Value: true}}
	kinds := []string{"chan", "wait", "file", "sleep"}
	random := func() *Reason {
		r := &Reason{Kind: kinds[rng.IntN(len(kinds))], Chain: []string{"f", "g", "h", "op"}[:2+rng.IntN(3)], Guarded: rng.IntN(3) == 0}
		if rng.IntN(4) == 0 {
			r.Released = []string{"(*pkg.T).mu"} // made in an unlock/relock window
		}
		for _, c := range conds {
			if rng.IntN(3) == 0 {
				r.When = append(r.When, c)
			}
		}
		return r
	}
	counts := map[string]int{}
	for range 20000 {
		s := &Summary{}
		for range rng.IntN(2 * maxBlocks) {
			s.addBlock(random())
		}
		r := random()
		i, add := s.blockEffect(r.When, r.Guarded, r.releases(), r.Plausible != "", r.strength(), len(r.Chain))
		before := slices.Clone(s.Blocks)
		ref := &Summary{Blocks: slices.Clone(s.Blocks)}
		changed := s.addBlock(r)
		if refChanged := refAddBlock(ref, r); refChanged != changed || !slices.Equal(ref.Blocks, s.Blocks) {
			t.Fatalf("addBlock(%v) on %v: %v, %v; before blockEffect: %v, %v", r, before, changed, s.Blocks, refChanged, ref.Blocks)
		}
		switch {
		case i >= 0:
			counts["replace"]++
			if !changed || s.Blocks[i] != r || len(s.Blocks) != len(before) {
				t.Fatalf("blockEffect said replace %d, addBlock: changed %v, blocks %v -> %v", i, changed, before, s.Blocks)
			}
		case add:
			counts["add"]++
			if !changed || !slices.Contains(s.Blocks, r) {
				t.Fatalf("blockEffect said add, addBlock: changed %v, blocks %v -> %v", changed, before, s.Blocks)
			}
		default:
			counts["none"]++
			if changed || !slices.Equal(before, s.Blocks) {
				t.Fatalf("blockEffect said no change, addBlock: changed %v, blocks %v -> %v", changed, before, s.Blocks)
			}
		}
	}
	for _, k := range []string{"replace", "add", "none"} {
		if counts[k] < 500 {
			t.Fatalf("%v: the cases are lopsided", counts)
		}
	}
}

// TestJoinReasonsYield checks that a join reason never stands in for a
// reason that surely blocks: it is not added beside one that covers it,
// and any reason under the same conditions replaces it.
func TestJoinReasonsYield(t *testing.T) {
	flush := lockstate.Cond{Param: 1, Value: true}
	join := &Reason{Kind: "chan", Chain: []string{"stop", "channel receive"}, Join: true, JoinTakes: []string{"(*pkg.keeper).mu"}}
	send := &Reason{Kind: "chan", Chain: []string{"stop", "channel send"}}
	sync := &Reason{Kind: "file", Chain: []string{"stop", "(*os.File).Sync"}, When: []lockstate.Cond{flush}}

	s := &Summary{}
	if !s.addBlock(send) || s.addBlock(join) {
		t.Fatalf("a join was added beside a reason that covers it: %v", s.Blocks)
	}

	s = &Summary{}
	s.addBlock(join)
	if !s.addBlock(send) || len(s.Blocks) != 1 || s.Blocks[0] != send {
		t.Fatalf("a reason under the same conditions did not replace the join: %v", s.Blocks)
	}

	s = &Summary{}
	s.addBlock(join)
	if !s.addBlock(sync) || len(s.Blocks) != 2 {
		t.Fatalf("a conditional reason did not join the join reason: %v", s.Blocks)
	}
	if got := s.AnyBlock(); got != sync {
		t.Fatalf("AnyBlock = %v, want the reason that surely blocks", got)
	}
	if got := blockAt(s, nil, judged{}, nil, nil); got != sync {
		t.Fatalf("BlockAt = %v, want the reason that surely blocks", got)
	}
	if got := blockAt(&Summary{Blocks: []*Reason{join}}, nil, judged{}, nil, nil); got != join {
		t.Fatalf("BlockAt of a join alone = %v", got)
	}
}

// TestNearestReason checks that, under the same conditions, a reason as
// strong as one kept but with a shorter chain replaces it, and a longer
// one does not.
func TestNearestReason(t *testing.T) {
	deep := &Reason{Kind: "file", Chain: []string{"NewWriteClient", "sigv4.New", "config.Load", "loadIni", "os.Open"}}
	near := &Reason{Kind: "file", Chain: []string{"NewWriteClient", "loadKey", "os.ReadFile"}}
	s := &Summary{}
	s.addBlock(deep)
	if !s.addBlock(near) || len(s.Blocks) != 1 || s.Blocks[0] != near {
		t.Fatalf("after the nearer reason: %v", s.Blocks)
	}
	if s.addBlock(deep) || s.Blocks[0] != near {
		t.Fatalf("a deeper reason replaced the nearer one: %v", s.Blocks)
	}
	weaker := &Reason{Kind: "chan", Chain: []string{"NewWriteClient", "send"}}
	if s.addBlock(weaker) || s.Blocks[0] != near {
		t.Fatalf("a weaker reason replaced a stronger one: %v", s.Blocks)
	}
}

// TestNearestApplicable checks that, of the reasons that can apply at a
// call (under conditions the call does not decide), the proven one with
// the shortest chain explains it, whatever order the summary holds them
// in.
func TestNearestApplicable(t *testing.T) {
	deep := &Reason{Kind: "file", Chain: []string{"NewWriteClient", "sigv4.New", "config.Load", "loadIni", "os.Open"},
		When: []lockstate.Cond{{Param: 0, Path: ".SigV4", Nil: true, Value: false}}}
	near := &Reason{Kind: "file", Chain: []string{"NewWriteClient", "azuread.New", "os.ReadFile"},
		When: []lockstate.Cond{{Param: 0, Path: ".AzureAD", Nil: true, Value: false}}}
	plausible := &Reason{Kind: "net", Chain: []string{"NewWriteClient", "net.Listen"}, Plausible: "a host name"}
	s := &Summary{Blocks: []*Reason{plausible, deep, near}}
	if got := s.AnyBlock(); got != near {
		t.Errorf("AnyBlock = %v, want the nearer proven reason", got)
	}
	if got := blockAt(s, nil, judged{}, nil, nil); got != near {
		t.Errorf("BlockAt with undecided conditions = %v, want the nearer proven reason", got)
	}
}

// TestTakesAndOnceTakes checks that the two picks split a summary's takes
// between locks and sync.Onces, in order, whatever the mix.
func TestTakesAndOnceTakes(t *testing.T) {
	mu := lockstate.Effect{Lock: lockstate.ID{Key: "p0.mu"}, Mode: lockstate.Write}
	rmu := lockstate.Effect{Lock: lockstate.ID{Key: "p0.rw"}, Mode: lockstate.Read}
	once := lockstate.Effect{Lock: lockstate.ID{Key: "p0.once"}, Mode: lockstate.Once}
	keys := func(es []lockstate.Effect) string {
		var ks []string
		for _, e := range es {
			ks = append(ks, e.Lock.Key)
		}
		return strings.Join(ks, ",")
	}
	for _, tc := range []struct {
		takes       []lockstate.Effect
		locks, once string
	}{
		{nil, "", ""},
		{[]lockstate.Effect{mu, rmu}, "p0.mu,p0.rw", ""},
		{[]lockstate.Effect{once}, "", "p0.once"},
		{[]lockstate.Effect{mu, once, rmu}, "p0.mu,p0.rw", "p0.once"},
	} {
		s := &Summary{Takes: tc.takes}
		if got := keys(Takes(s)); got != tc.locks {
			t.Errorf("Takes(%s) = %s, want %s", keys(tc.takes), got, tc.locks)
		}
		if got := keys(OnceTakes(s)); got != tc.once {
			t.Errorf("OnceTakes(%s) = %s, want %s", keys(tc.takes), got, tc.once)
		}
	}
}
