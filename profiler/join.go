package profiler

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"

	"github.com/lockaudit/lockaudit/internal/funcname"
)

// A Finding is a static finding attached to a hotspot: the part of a
// lockaudit check finding that the profile report shows. Rules other than
// heldcall (shardlock explaining a global cache lock, for one) join the
// same way.
type Finding struct {
	Rule     string `json:"rule"`
	Category string `json:"category"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

// A StaticFinding is a finding of lockaudit check as Join reads it: the
// fields of check's JSON report that locate it. Function is the enclosing
// declaration as check names it (F, (T).M or (*T).M) and Package its import
// path; Path, if set, is the absolute name of File, used to match by
// position.
type StaticFinding struct {
	Finding
	Function string `json:"function"`
	Package  string `json:"package"`
	Lock     string `json:"lock"`
	Path     string `json:"-"`
	// LockLine, when known, is the line (in File) where the lock the
	// finding is about is taken: the join then attaches the finding only
	// to hotspots of that lock's critical section.
	LockLine int `json:"-"`
}

// Join attaches to each hotspot the findings that explain it: those whose
// package-qualified function is the hotspot's declared function (closures
// and type arguments removed), and those in the hotspot's file whose
// enclosing function declaration also encloses the hotspot's line. A
// finding whose lock's acquisition line is known must also be about the
// hotspot's lock: for a waiter (block), the lock it waits at; for a holder
// (mutex), a lock taken before the finding and released at or after it.
// Each hotspot's findings are sorted by file, line, rule and message.
func Join(hotspots []*Hotspot, findings []StaticFinding) {
	decls := newDeclIndex()
	for _, h := range hotspots {
		var mine []StaticFinding
		for _, f := range findings {
			if f.LockLine == 0 || !sameFile(f.Path, h.absFile) || aboutLock(h, f) {
				mine = append(mine, f)
			}
		}
		h.Findings = decls.explain(h.Function, h.absFile, h.Line, mine, h.Findings)
	}
}

// aboutLock reports whether finding f, in the hotspot's file, is about the
// lock of hotspot h.
func aboutLock(h *Hotspot, f StaticFinding) bool {
	switch h.Kind {
	case Block:
		return f.LockLine == h.Line || f.Line == h.Line // waiting to take that lock
	case Mutex:
		return f.LockLine <= f.Line && f.Line <= h.Line // inside the section h's Unlock ends
	}
	return true
}

// joinWaits attaches findings to trace wait sites as Join does to
// hotspots.
func joinWaits(sites []*WaitSite, findings []StaticFinding) {
	decls := newDeclIndex()
	for _, w := range sites {
		w.Findings = decls.explain(w.Function, w.absFile, w.Line, findings, w.Findings)
	}
}

// explain adds to have the findings that explain code at line of absFile
// in function fn, and returns them sorted.
func (d *declIndex) explain(fn, absFile string, line int, findings []StaticFinding, have []Finding) []Finding {
	decl := declName(fn)
	var hotDecl string // the declaration around the line, by position
	if absFile != "" {
		hotDecl = d.enclosing(absFile, line)
	}
	for _, f := range findings {
		byName := f.Function != "" && f.Package+"."+f.Function == decl
		byPos := hotDecl != "" && f.Path != "" && sameFile(f.Path, absFile) && f.Function == hotDecl
		if (byName || byPos) && !slices.Contains(have, f.Finding) {
			have = append(have, f.Finding)
		}
	}
	slices.SortFunc(have, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Category, b.Category), cmp.Compare(a.Message, b.Message))
	})
	return have
}

// sameFile reports whether two absolute file names name one file.
func sameFile(a, b string) bool {
	return filepath.Clean(a) == filepath.Clean(b)
}

// A declIndex finds the function declarations enclosing source lines,
// parsing each file once.
type declIndex struct {
	fset  *token.FileSet
	files map[string]*ast.File // nil when the file cannot be parsed
}

func newDeclIndex() *declIndex {
	return &declIndex{fset: token.NewFileSet(), files: make(map[string]*ast.File)}
}

// enclosing returns the name of the function declaration (F, (T).M or
// (*T).M, as lockaudit check names it) that contains line of file, or "".
func (d *declIndex) enclosing(file string, line int) string {
	f := d.parse(file)
	if f == nil {
		return ""
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if d.fset.Position(fd.Pos()).Line <= line && line <= d.fset.Position(fd.End()).Line {
			return funcname.Decl(fd)
		}
	}
	return ""
}

// parse returns the syntax of file, parsed once; nil if it cannot be.
func (d *declIndex) parse(file string) *ast.File {
	f, ok := d.files[file]
	if !ok {
		f, _ = parser.ParseFile(d.fset, file, nil, parser.SkipObjectResolution)
		d.files[file] = f
	}
	return f
}
