package main

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/internal/funcname"
)

// lockedHereSuffix ends the message of the related location that marks a
// lock acquisition ("p.mu locked here").
const lockedHereSuffix = " locked here"

// A Finding is one reported defect, the unit of every output format.
//
// File names are report paths: slash-separated and relative to the report
// root (the repository or module root, see pathMapper) when the file is
// inside it, absolute otherwise. Lines and columns are 1-based; columns count
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
	// Fingerprint and assignFingerprints).
	Fingerprint string

	abs string // absolute file name
}

// Related is a secondary location of a finding, such as the lock acquisition.
type Related struct {
	File      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
	Message   string

	abs string
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

	abs string
}

// A PackageError is something that could not be analysed: a bad pattern, a
// package that does not load or type-check, an analyzer failure. Package is
// an import path or a pattern, or "" when the go command did not say.
type PackageError struct {
	Package string
	Message string
}

// findingOptions controls which diagnostics become findings.
type findingOptions struct {
	sel   *selection
	tests bool // keep findings located in _test.go files
}

// buildFindings turns go vet's diagnostics into findings: it filters them by
// rule selection and -tests, removes duplicates (a package and its test
// variant can both report a finding in a non-test file), derives the
// enclosing function and the lock, sorts them and assigns fingerprints.
func buildFindings(diags []vetDiagnostic, opts findingOptions, src *sourceCache, paths *pathMapper) []Finding {
	var findings []Finding
	seen := make(map[string]bool)
	for _, d := range diags {
		if !opts.sel.allows(d.Analyzer, d.Category) {
			continue
		}
		f := newFinding(d, src, paths)
		if !opts.tests && strings.HasSuffix(f.abs, "_test.go") {
			continue
		}
		key := dedupKey(f)
		if seen[key] {
			continue
		}
		seen[key] = true
		findings = append(findings, f)
	}
	sortFindings(findings)
	assignFingerprints(findings)
	return findings
}

// newFinding converts one diagnostic.
func newFinding(d vetDiagnostic, src *sourceCache, paths *pathMapper) Finding {
	f := Finding{
		Rule:     d.Analyzer,
		Category: d.Category,
		Severity: confidence.Of(d.Message).String(),
		Message:  d.Message,
		Package:  d.Package,
	}
	f.abs, f.Line, f.Column = parsePosn(d.Posn, paths.cwd)
	_, f.EndLine, f.EndColumn = parsePosn(d.End, paths.cwd)
	if f.EndLine == 0 {
		f.EndLine, f.EndColumn = f.Line, f.Column
	}
	f.File = paths.rel(f.abs)
	for _, r := range d.Related {
		rel := Related{Message: r.Message}
		rel.abs, rel.Line, rel.Column = parsePosn(r.Posn, paths.cwd)
		_, rel.EndLine, rel.EndColumn = parsePosn(r.End, paths.cwd)
		if rel.EndLine == 0 {
			rel.EndLine, rel.EndColumn = rel.Line, rel.Column
		}
		rel.File = paths.rel(rel.abs)
		f.Related = append(f.Related, rel)
		if f.Lock == "" && strings.HasSuffix(r.Message, lockedHereSuffix) {
			f.Lock = strings.TrimSuffix(r.Message, lockedHereSuffix)
		}
	}
	for _, sf := range d.SuggestedFixes {
		fix := Fix{Message: sf.Message}
		for _, e := range sf.Edits {
			abs := absPath(e.Filename, paths.cwd)
			edit := Edit{File: paths.rel(abs), Start: e.Start, End: e.End, NewText: e.New, abs: abs}
			edit.StartLine, edit.StartColumn = src.lineCol(abs, e.Start)
			edit.EndLine, edit.EndColumn = src.lineCol(abs, e.End)
			fix.Edits = append(fix.Edits, edit)
		}
		f.Fixes = append(f.Fixes, fix)
	}
	f.Function = src.enclosingFunc(f.abs, f.Line, f.Column)
	return f
}

// dedupKey identifies findings that are the same report.
func dedupKey(f Finding) string {
	return strings.Join([]string{f.Rule, f.Category, f.abs,
		strconv.Itoa(f.Line), strconv.Itoa(f.Column),
		strconv.Itoa(f.EndLine), strconv.Itoa(f.EndColumn), f.Message}, "\x00")
}

// sortFindings orders findings by file, line, column and rule (then
// category and message, for a total order).
func sortFindings(fs []Finding) {
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

// sortErrors orders errors by package and message and removes duplicates.
func sortErrors(errs []PackageError) []PackageError {
	slices.SortStableFunc(errs, func(a, b PackageError) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(errs)
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

// A sourceCache reads and parses the files that findings point into, once
// each, to derive enclosing functions and to convert offsets to positions.
type sourceCache struct {
	fset  *token.FileSet
	files map[string]*sourceFile
}

type sourceFile struct {
	content []byte
	tf      *token.File
	ast     *ast.File // nil if the file does not parse
}

func newSourceCache() *sourceCache {
	return &sourceCache{fset: token.NewFileSet(), files: make(map[string]*sourceFile)}
}

// file returns the parsed file, or nil if it cannot be read.
func (c *sourceCache) file(name string) *sourceFile {
	if sf, ok := c.files[name]; ok {
		return sf
	}
	var sf *sourceFile
	if content, err := os.ReadFile(name); err == nil {
		sf = &sourceFile{content: content}
		f, _ := parser.ParseFile(c.fset, name, content, parser.SkipObjectResolution)
		if f != nil {
			sf.tf = c.fset.File(f.FileStart)
			if f.Name != nil {
				sf.ast = f
			}
		}
		if sf.tf == nil {
			sf.tf = c.fset.AddFile(name, -1, len(content))
			sf.tf.SetLinesForContent(content)
		}
	}
	c.files[name] = sf
	return sf
}

// offset converts a 1-based line and byte column to a file offset, or -1.
func (sf *sourceFile) offset(line, col int) int {
	if line < 1 || line > sf.tf.LineCount() {
		return -1
	}
	off := sf.tf.Offset(sf.tf.LineStart(line)) + max(col, 1) - 1
	return min(off, sf.tf.Size())
}

// lineCol converts a byte offset of file name to a 1-based line and byte
// column, or 0, 0 if the file cannot be read.
func (c *sourceCache) lineCol(name string, offset int) (line, col int) {
	sf := c.file(name)
	if sf == nil || offset < 0 || offset > sf.tf.Size() {
		return 0, 0
	}
	p := sf.tf.PositionFor(sf.tf.Pos(offset), false)
	return p.Line, p.Column
}

// enclosingFunc returns the name of the function declaration enclosing the
// position, "" if there is none or the file cannot be parsed. A position in a
// function literal belongs to the declaration around the literal.
func (c *sourceCache) enclosingFunc(name string, line, col int) string {
	sf := c.file(name)
	if sf == nil || sf.ast == nil {
		return ""
	}
	off := sf.offset(line, col)
	if off < 0 {
		return ""
	}
	pos := sf.tf.Pos(off)
	for _, decl := range sf.ast.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
			return funcname.Decl(fd)
		}
	}
	return ""
}
