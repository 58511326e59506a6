// Package guard recovers panics in lockaudit's analyzers and turns them into
// errors that name the package and the position being analysed, so that one
// analyzer bug costs one package's results and is reported, never a crash of
// the whole run.
package guard

import (
	"fmt"
	"go/token"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A RunFunc is an analyzer's Run that keeps *at up to date with the position
// of what it is analysing.
type RunFunc func(pass *analysis.Pass, at *token.Pos) (any, error)

// Run adapts f to analysis.Analyzer.Run, recovering a panic in f as an error
// of the form "internal error at file:line:col: panic: ...".
func Run(f RunFunc) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		var at token.Pos
		defer func() {
			if r := recover(); r != nil {
				where := pass.Pkg.Path()
				if at.IsValid() {
					where = pass.Fset.Position(at).String()
				}
				err = fmt.Errorf("internal error at %s: panic: %v [%s]", where, r, topFrame(debug.Stack()))
				result = nil
			}
		}()
		return f(pass, &at)
	}
}

// topFrame returns the innermost lockaudit frame of a stack trace, so that
// the one-line error points at the code that panicked.
func topFrame(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "lockaudit/passes/") || i+1 >= len(lines) {
			continue
		}
		file := strings.Fields(lines[i+1])
		if len(file) > 0 && !strings.Contains(file[0], "/internal/guard/") {
			return file[0]
		}
	}
	return "no lockaudit frame"
}
