package heldcall_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/heldcall"
)

func TestHeldcall(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), heldcall.Analyzer, "workerpool")
}
