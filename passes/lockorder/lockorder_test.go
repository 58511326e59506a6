package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/internal/leveltest"
	"github.com/lockaudit/lockaudit/passes/lockorder"
)

// Each package holds deadlocking acquisitions (lines with a want comment)
// next to their correct twins, which must stay silent.
func TestLockorder(t *testing.T) {
	leveltest.ReportNotes(t)
	results := analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer,
		"cache", "bank", "registry", "registryuser", "accounts", "haslock", "handoff", "clusters", "readers", "leaks", "formatting", "membership", "connpool", "connhandler", "replicas", "keylocks", "inventory", "kvserver", "kvtick", "deferred", "dispatch", "loops", "funcargs", "subconns", "relock", "condlockers", "wrappedlocks", "scopes", "lazyinit", "gates", "condclasses", "methodvalues", "deferloops", "visitors", "lookups", "executors", "returnedfuncs", "vectorindex/stripes", "vectorindex/graph", "vectorindex/postings")
	leveltest.Check(t, results)
}
