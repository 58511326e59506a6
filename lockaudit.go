// Package lockaudit finds lock-contention bugs in Go code: locks held across
// calls that block or run foreign code, and global locks that serialise work
// meant to be independent.
//
// Analyzers returns the analyzers for use with any golang.org/x/tools/go/analysis
// driver (go vet -vettool, multichecker, golangci-lint, Bazel nogo).
package lockaudit

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/passes/heldcall"
	"github.com/lockaudit/lockaudit/passes/lockorder"
	"github.com/lockaudit/lockaudit/passes/shardlock"
)

// Analyzers returns lockaudit's analyzers, one per rule, in rule-name order.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		heldcall.Analyzer,
		lockorder.Analyzer,
		shardlock.Analyzer,
	}
}
