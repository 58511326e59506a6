package summary_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// TestFacts checks the exported summaries, including their crossing from
// package store to package server as facts.
func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), summary.Analyzer, "store", "server", "starters", "txnfile")
}
