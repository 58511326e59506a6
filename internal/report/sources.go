package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/internal/funcname"
)

// Sources reads and parses the files that findings point into, once each,
// to derive enclosing functions and to convert offsets to positions (and,
// for SARIF, byte columns to UTF-16 ones).
type Sources struct {
	fset  *token.FileSet
	files map[string]*sourceFile
}

type sourceFile struct {
	content   []byte
	tf        *token.File
	ast       *ast.File // nil if the file does not parse
	generated bool      // the file says it is generated (// Code generated ... DO NOT EDIT.)
}

// NewSources returns an empty cache.
func NewSources() *Sources {
	return &Sources{fset: token.NewFileSet(), files: make(map[string]*sourceFile)}
}

// file returns the parsed file, or nil if it cannot be read.
func (c *Sources) file(name string) *sourceFile {
	if sf, ok := c.files[name]; ok {
		return sf
	}
	var sf *sourceFile
	if content, err := os.ReadFile(name); err == nil {
		sf = &sourceFile{content: content, generated: isGenerated(name, content)}
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

// Generated reports whether the file name marks itself as generated code
// (https://go.dev/s/generatedcode): a finding there cannot be fixed where it
// is reported, only in its generator.
func (c *Sources) Generated(name string) bool {
	sf := c.file(name)
	return sf != nil && sf.generated
}

// isGenerated reads the generated-code comment of a file's header.
func isGenerated(name string, content []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, content, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}

// offset converts a 1-based line and byte column to a file offset, or -1.
func (sf *sourceFile) offset(line, col int) int {
	if line < 1 || line > sf.tf.LineCount() {
		return -1
	}
	off := sf.tf.Offset(sf.tf.LineStart(line)) + max(col, 1) - 1
	return min(off, sf.tf.Size())
}

// LineCol converts a byte offset of file name to a 1-based line and byte
// column, or 0, 0 if the file cannot be read.
func (c *Sources) LineCol(name string, offset int) (line, col int) {
	sf := c.file(name)
	if sf == nil || offset < 0 || offset > sf.tf.Size() {
		return 0, 0
	}
	p := sf.tf.PositionFor(sf.tf.Pos(offset), false)
	return p.Line, p.Column
}

// EnclosingFunc returns the name of the function declaration enclosing the
// position, "" if there is none or the file cannot be parsed. A position in a
// function literal belongs to the declaration around the literal.
func (c *Sources) EnclosingFunc(name string, line, col int) string {
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

// utf16Col converts a 1-based byte column on a line of file name to a
// 1-based UTF-16 column. It returns col unchanged if the file cannot be read.
func (c *Sources) utf16Col(name string, line, col int) int {
	sf := c.file(name)
	if sf == nil || col <= 1 {
		return col
	}
	start := sf.offset(line, 1)
	if start < 0 {
		return col
	}
	end := min(start+col-1, len(sf.content))
	units := 0
	for b := sf.content[start:end]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return units + 1
}
