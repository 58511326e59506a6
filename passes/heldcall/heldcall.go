package heldcall

import "golang.org/x/tools/go/analysis"

// Analyzer reports calls and operations that block or run foreign code while a lock is held.
var Analyzer = &analysis.Analyzer{
	Name: "heldcall",
	Doc:  "report blocking calls and foreign code executed while a lock is held",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}
