package heldcall_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/passes/heldcall"
)

// Each package under testdata/src holds cases of one kind: a positive (a
// line with a want comment) next to its negative twin, the corrected code,
// which must stay silent.
var corpus = []string{
	"workerpool",
	"callbacks",
	"ifaces",
	"channels",
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
	"regressions",
	"idioms",
}

func TestHeldcall(t *testing.T) {
	// One run loads the packages and their dependencies once: run per
	// package, the corpus took minutes.
	analysistest.Run(t, analysistest.TestData(), heldcall.Analyzer, corpus...)
}
