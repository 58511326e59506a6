// Package fix applies the suggested fixes of findings to their files, or
// shows them as a unified diff.
package fix

// Applying suggested fixes (check -fix) and showing them (check -diff).
//
// Decision, by experiment with Go 1.26.8: the go command can apply fixes
// itself ("go vet -vettool=lockaudit -fix [-diff]" and "go fix
// -fixtool=lockaudit [-diff]" both work; with -diff both exit 1 when there is
// a diff, but also 1 when a package fails to type-check, so the two cases are
// told apart only by parsing stderr). It is not used because it applies every
// fix of every enabled analyzer: it cannot honour what check filters after
// the analysis (-disable rule/category, the advisory categories, -tests=false,
// -baseline), so "lockaudit check -disable heldcall/sleep -fix" would still
// rewrite the sleep findings. Instead the fixes are taken from the JSON that
// check already has (byte offsets per edit) and applied here to exactly the
// findings being reported; the unified diff is produced by diff.go.
//
// Rules: the first fix of each finding, in report order; a fix is applied
// whole or not at all; a fix that overlaps one already accepted is skipped
// (rerun to apply it); identical edits from two findings are applied once;
// files outside the main modules, generated files and files modified since
// the analysis started are left alone; a file that was gofmt-formatted is
// formatted again after editing; files are replaced atomically (temporary
// file and rename), keeping their permissions. Unlike go vet -fix, imports
// made unused by a fix are not removed: the analyzers' fixes do not change
// which packages a file uses.

import (
	"bytes"
	"fmt"
	"go/format"
	"maps"
	"os"
	"regexp"
	"slices"
	"time"

	"github.com/lockaudit/lockaudit/internal/report"
)

// Options controls Apply.
type Options struct {
	Write      bool          // write the files (-fix); otherwise only diff them (-diff)
	Modules    []string      // main module directories; other files are not edited
	AnalysedAt time.Time     // files modified after this are not edited
	Paths      *report.Paths // how file names are shown in messages and diffs
}

// Result is the outcome of Apply.
type Result struct {
	Unfixed []report.Finding // findings whose fix was not applied, or that have none
	Diff    string           // unified diff of all changes
	Notes   []string         // what was done or skipped, for stderr
	Errors  []string         // files that could not be written
}

// fileEdits is the accepted edits of one file.
type fileEdits struct {
	abs     string
	content []byte
	edits   []report.Edit
}

// Apply applies (or, without opts.Write, only diffs) the first fix of each
// finding.
func Apply(findings []report.Finding, opts Options) Result {
	var res Result
	files := make(map[string]*fileEdits)
	unusable := make(map[string]string) // file -> reason it is not edited
	skipped := make(map[string]int)     // reason -> count
	applied := 0

	load := func(abs string) (*fileEdits, string) {
		if reason, ok := unusable[abs]; ok {
			return nil, reason
		}
		if fe, ok := files[abs]; ok {
			return fe, ""
		}
		reason := ""
		var content []byte
		if !slices.ContainsFunc(opts.Modules, func(dir string) bool { _, ok := report.Within(dir, abs); return ok }) {
			reason = "outside the main module"
		} else if fi, err := os.Stat(abs); err != nil {
			reason = "unreadable"
		} else if fi.ModTime().After(opts.AnalysedAt) {
			reason = "modified during the analysis"
		} else if content, err = os.ReadFile(abs); err != nil {
			reason = "unreadable"
		} else if isGenerated(content) {
			reason = "in a generated file"
		}
		if reason != "" {
			unusable[abs] = reason
			return nil, reason
		}
		fe := &fileEdits{abs: abs, content: content}
		files[abs] = fe
		return fe, ""
	}

next:
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			res.Unfixed = append(res.Unfixed, f)
			continue
		}
		fix := f.Fixes[0]
		var add []report.Edit // edits of this fix that are not already accepted
		for i, e := range fix.Edits {
			fe, reason := load(e.Abs)
			if reason == "" && (e.Start < 0 || e.Start > e.End || e.End > len(fe.content)) {
				reason = "out of range of its file"
			}
			if reason == "" {
				for _, other := range fix.Edits[:i] {
					if other.Abs == e.Abs && overlaps(e, other) {
						reason = "inconsistent (its edits overlap)"
					}
				}
			}
			if reason == "" && slices.ContainsFunc(fe.edits, func(a report.Edit) bool { return overlaps(e, a) }) {
				reason = "in conflict with another fix (rerun to apply it)"
			}
			if reason != "" {
				skipped[reason]++
				res.Unfixed = append(res.Unfixed, f)
				continue next
			}
			if !slices.ContainsFunc(fe.edits, func(a report.Edit) bool { return sameEdit(e, a) }) {
				add = append(add, e)
			}
		}
		for _, e := range add {
			files[e.Abs].edits = append(files[e.Abs].edits, e)
		}
		applied++
	}

	var diff bytes.Buffer
	written := 0
	for _, abs := range slices.Sorted(maps.Keys(files)) {
		fe := files[abs]
		if len(fe.edits) == 0 {
			continue
		}
		updated := applyEdits(fe.content, fe.edits)
		if formatted, err := format.Source(fe.content); err == nil && bytes.Equal(formatted, fe.content) {
			if formatted, err := format.Source(updated); err == nil {
				updated = formatted
			}
		}
		if opts.Write {
			if err := report.WriteFileAtomic(abs, updated, 0); err != nil {
				res.Errors = append(res.Errors, fmt.Sprintf("writing fix to %s: %v", opts.Paths.Display(abs), err))
				continue
			}
			written++
		} else {
			name := opts.Paths.Display(abs)
			oldName, newName := "a/"+name, "b/"+name
			if name == abs {
				oldName, newName = abs, abs
			}
			diff.WriteString(unifiedDiff(oldName, newName, fe.content, updated))
		}
	}
	res.Diff = diff.String()
	if opts.Write && applied > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("applied %d %s to %d %s", applied, plural(applied, "fix", "fixes"), written, plural(written, "file", "files")))
	}
	for _, reason := range slices.Sorted(maps.Keys(skipped)) {
		n := skipped[reason]
		res.Notes = append(res.Notes, fmt.Sprintf("skipped %d %s %s", n, plural(n, "fix", "fixes"), reason))
	}
	return res
}

// overlaps reports whether two edits of the same file touch the same bytes,
// or insert at the same offset (their order would be ambiguous). Identical
// edits do not overlap: they are applied once.
func overlaps(a, b report.Edit) bool {
	if a.Abs != b.Abs || sameEdit(a, b) {
		return false
	}
	if a.Start == a.End && b.Start == b.End {
		return a.Start == b.Start
	}
	return a.Start < b.End && b.Start < a.End
}

func sameEdit(a, b report.Edit) bool {
	return a.Abs == b.Abs && a.Start == b.Start && a.End == b.End && a.NewText == b.NewText
}

// applyEdits applies non-overlapping edits to content.
func applyEdits(content []byte, edits []report.Edit) []byte {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b report.Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End // an insertion goes before a replacement at the same offset
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(content[last:e.Start])
		out.WriteString(e.NewText)
		last = e.End
	}
	out.Write(content[last:])
	return out.Bytes()
}

var (
	// generatedRE matches the standard marker of generated Go files.
	generatedRE = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)
	packageRE   = regexp.MustCompile(`(?m)^package `)
)

// isGenerated reports whether a Go file is marked as generated before its
// package clause.
func isGenerated(content []byte) bool {
	head := content
	if i := packageRE.FindIndex(content); i != nil {
		head = content[:i[0]]
	}
	return generatedRE.Match(head)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
