package driver

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/internal/report"
	"github.com/lockaudit/lockaudit/internal/rules"
)

// lockedHereSuffix ends the message of the related location that marks a
// lock acquisition ("p.mu locked here").
const lockedHereSuffix = " locked here"

// findingOptions controls which diagnostics become findings.
type findingOptions struct {
	sel       *rules.Selection
	tests     bool // keep findings located in _test.go files
	generated bool // keep findings located in generated files
}

// buildFindings turns go vet's diagnostics into findings: it filters them by
// rule selection, -tests and -generated, removes duplicates (a package and its test
// variant can both report a finding in a non-test file), derives the
// enclosing function and the lock, sorts them and assigns fingerprints.
func buildFindings(diags []vetDiagnostic, opts findingOptions, src *report.Sources, paths *report.Paths) []report.Finding {
	var findings []report.Finding
	seen := make(map[string]bool)
	for _, d := range diags {
		if !opts.sel.Allows(d.Analyzer, d.Category) {
			continue
		}
		f := newFinding(d, src, paths)
		if !opts.tests && strings.HasSuffix(f.Abs, "_test.go") {
			continue
		}
		if !opts.generated && src.Generated(f.Abs) {
			continue
		}
		key := dedupKey(f)
		if seen[key] {
			continue
		}
		seen[key] = true
		findings = append(findings, f)
	}
	report.SortFindings(findings)
	report.AssignFingerprints(findings)
	return findings
}

// newFinding converts one diagnostic.
func newFinding(d vetDiagnostic, src *report.Sources, paths *report.Paths) report.Finding {
	f := report.Finding{
		Rule:     d.Analyzer,
		Category: d.Category,
		Severity: confidence.Of(d.Message).String(),
		Message:  d.Message,
		Package:  d.Package,
	}
	f.Abs, f.Line, f.Column = parsePosn(d.Posn, paths.Cwd)
	_, f.EndLine, f.EndColumn = parsePosn(d.End, paths.Cwd)
	if f.EndLine == 0 {
		f.EndLine, f.EndColumn = f.Line, f.Column
	}
	f.File = paths.Rel(f.Abs)
	for _, r := range d.Related {
		rel := report.Related{Message: r.Message}
		rel.Abs, rel.Line, rel.Column = parsePosn(r.Posn, paths.Cwd)
		_, rel.EndLine, rel.EndColumn = parsePosn(r.End, paths.Cwd)
		if rel.EndLine == 0 {
			rel.EndLine, rel.EndColumn = rel.Line, rel.Column
		}
		rel.File = paths.Rel(rel.Abs)
		f.Related = append(f.Related, rel)
		if f.Lock == "" && strings.HasSuffix(r.Message, lockedHereSuffix) {
			f.Lock = strings.TrimSuffix(r.Message, lockedHereSuffix)
		}
	}
	for _, sf := range d.SuggestedFixes {
		fix := report.Fix{Message: sf.Message}
		for _, e := range sf.Edits {
			abs := absPath(e.Filename, paths.Cwd)
			edit := report.Edit{File: paths.Rel(abs), Start: e.Start, End: e.End, NewText: e.New, Abs: abs}
			edit.StartLine, edit.StartColumn = src.LineCol(abs, e.Start)
			edit.EndLine, edit.EndColumn = src.LineCol(abs, e.End)
			fix.Edits = append(fix.Edits, edit)
		}
		f.Fixes = append(f.Fixes, fix)
	}
	f.Function = src.EnclosingFunc(f.Abs, f.Line, f.Column)
	return f
}

// dedupKey identifies findings that are the same report.
func dedupKey(f report.Finding) string {
	return strings.Join([]string{f.Rule, f.Category, f.Abs,
		strconv.Itoa(f.Line), strconv.Itoa(f.Column),
		strconv.Itoa(f.EndLine), strconv.Itoa(f.EndColumn), f.Message}, "\x00")
}

// parsePosn parses a go/token position string, "file:line:col", "file:line"
// or "file" ("-" for no position). The file name is made absolute relative
// to dir. File names may themselves contain colons, so numbers are taken from
// the right.
func parsePosn(s, dir string) (file string, line, col int) {
	file = s
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		if n, err := strconv.Atoi(file[i+1:]); err == nil {
			file = file[:i]
			if j := strings.LastIndexByte(file, ':'); j >= 0 {
				if m, err := strconv.Atoi(file[j+1:]); err == nil {
					return absPath(file[:j], dir), m, n
				}
			}
			return absPath(file, dir), n, 0
		}
	}
	if file == "-" {
		file = ""
	}
	return absPath(file, dir), 0, 0
}

// absPath makes name absolute relative to dir.
func absPath(name, dir string) string {
	if name == "" {
		return ""
	}
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, name)
}
