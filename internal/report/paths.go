package report

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Paths presents absolute file names in reports.
//
// Text output names files relative to the current directory, like the
// compiler. JSON and SARIF name them relative to the report root: the
// repository's top-level directory (nearest parent with a .git entry), else
// the main module's root (nearest go.mod), else the current directory. SARIF
// consumers such as GitHub code scanning need repository-relative paths, and
// the same paths in JSON keep the two formats and the fingerprints (which
// include the path) consistent wherever in the tree the command runs.
type Paths struct {
	Cwd  string // current directory
	Root string // report root
}

// NewPaths returns the paths for the current directory cwd.
func NewPaths(cwd string) *Paths {
	root := findUp(cwd, ".git")
	if root == "" {
		root = findUp(cwd, "go.mod")
	}
	if root == "" {
		root = cwd
	}
	return &Paths{Cwd: cwd, Root: root}
}

// findUp returns the nearest directory at or above dir containing name.
func findUp(dir, name string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Within returns abs relative to base if abs is inside base, else "".
func Within(base, abs string) (string, bool) {
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Display returns abs relative to the current directory if it is inside it,
// else abs: the form used by text output.
func (p *Paths) Display(abs string) string {
	if rel, ok := Within(p.Cwd, abs); ok && abs != "" {
		return rel
	}
	return abs
}

// Rel returns the report path of abs: slash-separated and relative to the
// report root when inside it, else absolute.
func (p *Paths) Rel(abs string) string {
	if rel, ok := Within(p.Root, abs); ok && abs != "" {
		return filepath.ToSlash(rel)
	}
	return abs
}

// uri returns a SARIF artifact URI for a report path and whether it is
// relative to the report root (then it goes with uriBaseId %SRCROOT%).
func (p *Paths) uri(reportPath string) (string, bool) {
	if filepath.IsAbs(reportPath) {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(reportPath)}).String(), false
	}
	return (&url.URL{Path: reportPath}).EscapedPath(), true
}

// rootURI is the file: URI of the report root, ending in a slash as SARIF
// requires for originalUriBaseIds.
func (p *Paths) rootURI() string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p.Root) + "/"}).String()
}
