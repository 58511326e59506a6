package shardlock_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/internal/leveltest"
	"github.com/lockaudit/lockaudit/passes/shardlock"
)

// The package holds each finding (a line with a want comment) next to its
// correct twin, which must stay silent.
func TestShardlock(t *testing.T) {
	leveltest.ReportNotes(t)
	results := analysistest.Run(t, analysistest.TestData(), shardlock.Analyzer, "tenants", "segments", "sessions", "locktable", "shardset", "registry", "partitions")
	leveltest.Check(t, results)
}

// TestShardlockTests runs with -tests: above-shards findings in _test.go
// files are reported too.
func TestShardlockTests(t *testing.T) {
	leveltest.SetFlag(t, shardlock.Analyzer, "tests", "true")
	results := analysistest.Run(t, analysistest.TestData(), shardlock.Analyzer, "quotas")
	leveltest.Check(t, results)
}
