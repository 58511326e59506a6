package lockorder_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/internal/leveltest"
	"github.com/lockaudit/lockaudit/passes/lockorder"
)

// relatedWant lists, by a finding's file:line, its related locations as
// "file:line: message", in order. analysistest checks messages only.
type relatedWant map[string][]string

// checkRelated runs the analyzer on pkgs and compares the related
// locations of the findings of the given category with want; every finding
// of the category must be listed.
func checkRelated(t *testing.T, category string, want relatedWant, pkgs ...string) {
	t.Helper()
	leveltest.ReportNotes(t)
	results := analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, pkgs...)
	seen := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Category != category {
				continue
			}
			p := r.Pass.Fset.Position(d.Pos)
			at := fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			seen[at] = true
			var got []string
			for _, rel := range d.Related {
				rp := r.Pass.Fset.Position(rel.Pos)
				got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(rp.Filename), rp.Line, rel.Message))
			}
			w, ok := want[at]
			if !ok {
				t.Errorf("%s: unexpected %s finding %q with related %q", at, category, d.Message, got)
				continue
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s: related locations\n got %q\nwant %q", at, got, w)
			}
		}
	}
	for at := range want {
		if !seen[at] {
			t.Errorf("%s: no %s finding", at, category)
		}
	}
}

// An order cycle names both paths: each edge's first lock, its second
// lock's acquisition (for the other edge) and the calls from the function
// holding the first lock down to the acquisition in the callee.
func TestOrderCycleRelated(t *testing.T) {
	checkRelated(t, "order-cycle", relatedWant{
		// tick -> maybeQuiesce -> coalesce, against sendHeartbeats ->
		// reportUnreachable.
		"replicas.go:46": {
			"replicas.go:44: r.raftMu locked here",
			"replicas.go:52: calls (*Replica).coalesce here",
			"replicas.go:57: r.store.hbMu locked here, in (*Replica).coalesce",
			"replicas.go:28: s.hbMu locked here (opposite order)",
			"replicas.go:31: r.raftMu then locked via (*Replica).reportUnreachable here",
			"replicas.go:37: r.raftMu locked here, in (*Replica).reportUnreachable",
		},
		"replicas.go:31": {
			"replicas.go:28: s.hbMu locked here",
			"replicas.go:37: r.raftMu locked here, in (*Replica).reportUnreachable",
			"replicas.go:44: r.raftMu locked here (opposite order)",
			"replicas.go:46: r.store.hbMu then locked via (*Replica).maybeQuiesce here",
			"replicas.go:52: calls (*Replica).coalesce here",
			"replicas.go:57: r.store.hbMu locked here, in (*Replica).coalesce",
		},
		// Direct acquisitions, related and class-only.
		"clusters.go:27": {
			"clusters.go:24: c.srv.mu locked here",
			"clusters.go:35: c.mu locked here (opposite order)",
			"clusters.go:37: c.srv.mu then locked here",
		},
		"clusters.go:37": {
			"clusters.go:35: c.mu locked here",
			"clusters.go:24: c.srv.mu locked here (opposite order)",
			"clusters.go:27: c.mu then locked here",
		},
		"clusters.go:58": {
			"clusters.go:56: c.mu locked here",
			"clusters.go:24: c.srv.mu locked here (opposite order)",
			"clusters.go:27: c.mu then locked here",
		},
		// Across packages: the other package's half comes from its
		// exported edges.
		"handler.go:23": {
			"handler.go:21: h.conn.mu locked here",
			"pool.go:31: p.mu locked here (opposite order)",
			"pool.go:34: p.conns[i].mu then locked here",
		},
		"handler.go:39": {
			"handler.go:37: c.mu locked here",
			"pool.go:31: p.mu locked here (opposite order)",
			"pool.go:34: p.conns[i].mu then locked here",
		},
		// A registry's lock and its per-key locks.
		// A lock released under another: held from the caller.
		"handoff.go:19": {
			"handoff.go:15: l.mu locked here",
			"handoff.go:30: um, held from the caller, released here (opposite order)",
			"handoff.go:27: l.mu then locked here",
		},
		"handoff.go:27": {
			"handoff.go:30: um, held from the caller, released here",
			"handoff.go:15: l.mu locked here (opposite order)",
			"handoff.go:19: l.byURL[url] then locked here",
		},
		"keylocks.go:38": {
			"keylocks.go:32: r.mu locked here",
			"keylocks.go:61: l locked here (opposite order)",
			"keylocks.go:64: r.mu then locked here",
		},
		"keylocks.go:64": {
			"keylocks.go:61: l locked here",
			"keylocks.go:32: r.mu locked here (opposite order)",
			"keylocks.go:38: l then locked here",
		},
		"keylocks.go:88": {
			"keylocks.go:86: l locked here",
			"keylocks.go:32: r.mu locked here (opposite order)",
			"keylocks.go:38: l then locked here",
		},
		// The replicas' cycle split across two packages: the chain in
		// kvtick ends at the call into kvserver, whose half comes from
		// its exported edges.
		"kvtick.go:15": {
			"kvtick.go:13: r.raftMu locked here",
			"kvtick.go:31: calls coalesce here",
			"kvtick.go:34: calls kvserver.(*Store).Coalesce here",
			"kvserver.go:28: s.hbMu locked here (opposite order)",
			"kvserver.go:31: r.raftMu then locked via (*Replica).reportUnreachable here",
			"kvserver.go:36: r.raftMu locked here, in (*Replica).reportUnreachable",
		},
		"kvtick.go:42": {
			"kvtick.go:40: r.raftMu locked here",
			"kvserver.go:28: s.hbMu locked here (opposite order)",
			"kvserver.go:31: r.raftMu then locked via (*Replica).reportUnreachable here",
			"kvserver.go:36: r.raftMu locked here, in (*Replica).reportUnreachable",
		},
	}, "replicas", "clusters", "connpool", "connhandler", "keylocks", "kvserver", "kvtick")
}

// A read lock of the held lock's class through another type's method names
// the held lock and the calls down to the second read lock.
func TestReentryByClassRelated(t *testing.T) {
	checkRelated(t, "rlock-reentry", relatedWant{
		"inventory.go:52": {
			"inventory.go:50: s.mu locked here",
			"inventory.go:42: calls (*Store).Qty here",
			"inventory.go:33: s.mu locked here, in (*Store).Qty",
		},
		"inventory.go:72": {
			"inventory.go:70: s.mu locked here",
			"inventory.go:65: calls (*Index).total here",
			"inventory.go:42: calls (*Store).Qty here",
			"inventory.go:33: s.mu locked here, in (*Store).Qty",
		},
	}, "inventory")
}
