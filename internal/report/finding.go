// Package report holds lockaudit check's finding model and renders it: the
// text, JSON and SARIF reports, fingerprints and the baseline.
package report

import (
	"cmp"
	"slices"
	"strings"
)

// A Finding is one reported defect, the unit of every output format.
//
// File names are report paths: slash-separated and relative to the report
// root (the repository or module root, see Paths) when the file is inside
// it, absolute otherwise. Lines and columns are 1-based; columns count
// bytes, as in the go command's positions. End positions are exclusive.
type Finding struct {
	Rule      string // analyzer name, e.g. "heldcall"
	Category  string // Diagnostic.Category, e.g. "sleep"
	Severity  string // "warning" (proven) or "note" (plausible)
	Message   string
	File      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
	Package   string // import path of the package that reported it
	Function  string // enclosing function declaration: F, (T).M or (*T).M; "" at package level
	Lock      string // name of the lock involved, from the "<lock> locked here" related location
	Related   []Related
	Fixes     []Fix

	// Fingerprint identifies the finding across unrelated edits (see
	// Fingerprint and AssignFingerprints).
	Fingerprint string

	// Abs is the absolute name of File, for reading the file; it is not
	// part of any report.
	Abs string
}

// Related is a secondary location of a finding, such as the lock acquisition.
type Related struct {
	File      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
	Message   string

	Abs string // absolute name of File
}

// A Fix is a suggested fix: edits to apply together or not at all.
type Fix struct {
	Message string
	Edits   []Edit
}

// An Edit replaces the bytes [Start, End) of a file with NewText. The
// line/column form of the same range is filled in when the file is readable.
type Edit struct {
	File        string
	Start, End  int // byte offsets
	StartLine   int
	StartColumn int
	EndLine     int
	EndColumn   int
	NewText     string

	Abs string // absolute name of File
}

// A PackageError is something that could not be analysed: a bad pattern, a
// package that does not load or type-check, an analyzer failure. Package is
// an import path or a pattern, or "" when the go command did not say.
type PackageError struct {
	Package string
	Message string
}

// SortFindings orders findings by file, line, column and rule (then
// category and message, for a total order).
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Category, b.Category),
			cmp.Compare(a.Message, b.Message),
			cmp.Compare(a.EndLine, b.EndLine),
			cmp.Compare(a.EndColumn, b.EndColumn),
		)
	})
}

// SortErrors orders errors by package and message and removes duplicates.
func SortErrors(errs []PackageError) []PackageError {
	slices.SortStableFunc(errs, func(a, b PackageError) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(errs)
}

// OneLine joins the lines of a multi-line message with spaces: every message
// of a report is one line.
func OneLine(s string) string {
	var parts []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " ")
}
