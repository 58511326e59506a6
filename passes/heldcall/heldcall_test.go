package heldcall_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/heldcall"
	"github.com/lockaudit/lockaudit/passes/internal/leveltest"
)

// Each package under testdata/src holds cases of one kind: a positive (a
// line with a want comment) next to its negative twin, the corrected code,
// which must stay silent.
var corpus = []string{
	"workerpool",
	"callbacks",
	"ifaces",
	"channels",
	"chancycle",
	"sleepwait",
	"cond",
	"netio",
	"fileio",
	"execdb",
	"transitive",
	"closures",
	"trylock",
	"locker",
	"embedded",
	"wrappers",
	"generics",
	"defers",
	"loops",
	"suppress",
	"storeclient",
	"crosspkg",
	"tokenclient",
	"regressions",
	"idioms",
	"precision",
	"collectors",
	"kvstore",
	"kvstore/internal/evict",
	"internal/cpuprof",
	"mockstore",
	"volumestore",
	"volumestore/glog",
	"rtcagent",
	"changefeed",
	"writegate",
	"writegate/metastore",
	"writegate/backup",
	"spillqueue",
	"spillqueue/logger",
	"digest",
	"digest/tree",
	"txpool",
	"txpool/syncx",
	"rpcpool",
	"filewatch",
	"cluster/test/harness",
	"eventbus",
	"eventbus/spawn",
	"eventbus/spool",
	"kvfile",
	"kvfile/ledger",
}

func TestHeldcall(t *testing.T) {
	// Notes are reported too: their messages end "(plausible: ...)", and
	// the want patterns say which findings are notes.
	leveltest.ReportNotes(t)
	// One run loads the packages and their dependencies once: run per
	// package, the corpus took minutes.
	results := analysistest.Run(t, analysistest.TestData(), heldcall.Analyzer, corpus...)
	leveltest.Check(t, results)
}

// setFlag sets one of the analyzer's flags for the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	leveltest.SetFlag(t, heldcall.Analyzer, name, value)
}
