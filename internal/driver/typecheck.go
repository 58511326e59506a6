package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// A checkedUnit is a unit parsed and type-checked.
type checkedUnit struct {
	fset  *token.FileSet
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
	sizes types.Sizes
}

// maxTypeErrors bounds the type errors reported for one unit.
const maxTypeErrors = 10

// An importView is a file set and the packages read from export data into
// it: the types a unit is checked against.
//
// A unit whose dependencies are all plain packages (no test variant) can
// share the view of the units checked before it on the same worker, so
// that each dependency's export data is read once per worker rather than
// once per importer. Reading export data adds objects to the packages it
// mentions, so a view is never shared between goroutines; a unit whose
// dependencies include test variants gets a view of its own, since a path
// may name another package there.
type importView struct {
	fset     *token.FileSet
	packages map[string]*types.Package
}

func newImportView() *importView {
	return &importView{fset: token.NewFileSet(), packages: make(map[string]*types.Package)}
}

// plainDeps reports whether u depends on no test variant, so that it can
// share a view with other such units.
func (u *unit) plainDeps() bool {
	for _, id := range u.Deps {
		if strings.Contains(id, " [") {
			return false
		}
	}
	return true
}

// typeCheck parses u's compiled Go files and type-checks them against the
// export data of its imports, which exports gives by unit ID, read into
// view.
//
// src holds the files already read, by name; the others are read here.
func typeCheck(u *unit, src map[string][]byte, exports map[string]string, view *importView, t *target) (*checkedUnit, error) {
	c := &checkedUnit{fset: view.fset, sizes: t.sizes}
	for _, name := range u.CompiledGoFiles {
		file := absIn(u.Dir, name)
		var text any
		if data, ok := src[file]; ok {
			text = data
		}
		f, err := parser.ParseFile(c.fset, file, text, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, parseError(err)
		}
		c.files = append(c.files, f)
	}
	imports := view.packages
	importer := importerFunc(func(path string) (*types.Package, error) {
		id := path
		if mapped, ok := u.ImportMap[path]; ok {
			id = mapped
		}
		// The package's path is the one it was compiled under: a vendored
		// package's ("vendor/golang.org/x/net/..."), as other packages'
		// export data name it. PGO renames a main's dependencies, unsafe
		// included ("unsafe [example.com/cmd]").
		pkgPath := packageOfID(id)
		if pkgPath == "unsafe" {
			return types.Unsafe, nil
		}
		if pkg, ok := imports[pkgPath]; ok && pkg.Complete() {
			return pkg, nil
		}
		file := exports[id]
		if file == "" {
			return nil, fmt.Errorf("no export data for %q", id)
		}
		return readExportData(file, c.fset, imports, pkgPath)
	})
	var typeErrs []string
	tc := &types.Config{
		Importer:  importer,
		Sizes:     c.sizes,
		GoVersion: t.goVersion(u),
		Error: func(err error) {
			if len(typeErrs) < maxTypeErrors {
				typeErrs = append(typeErrs, err.Error())
			}
		},
	}
	c.info = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	pkg, err := tc.Check(u.path(), c.fset, c.files, c.info)
	if err != nil {
		return nil, errors.New(strings.Join(typeErrs, "; "))
	}
	c.pkg = pkg
	return c, nil
}

// readExportData reads the compiler's export data for path from file.
func readExportData(file string, fset *token.FileSet, imports map[string]*types.Package, path string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Go 1.26's go list -export names the compiler's archive, which only
	// NewReader opens (from Go 1.28 it runs cmd/export, whose output it
	// passes through).
	//lint:ignore SA1019 the supported toolchains still write archives
	r, err := gcexportdata.NewReader(f) //nolint:staticcheck // the supported toolchains still write archives
	if err != nil {
		return nil, fmt.Errorf("reading export data for %q: %v", path, err)
	}
	return gcexportdata.Read(r, fset, imports, path)
}

// A target is what the go command builds for: the types' sizes and the
// language version of packages outside modules follow it, as go vet's
// configuration of its tool does.
type target struct {
	goos, goarch, goversion string // go env GOOS GOARCH GOVERSION
	sizes                   types.Sizes
}

// goTarget asks the go command for its target: GOARCH may come from go env
// -w or GOENV, which build.Default does not read.
func goTarget(ctx context.Context, env goEnv) (*target, error) {
	var out, errOut bytes.Buffer
	if err := runGoCommand(ctx, env, &out, &errOut, "env", "GOOS", "GOARCH", "GOVERSION"); err != nil {
		return nil, fmt.Errorf("go env: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	f := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(f) != 3 {
		return nil, fmt.Errorf("go env: unexpected output %q", out.String())
	}
	t := &target{goos: f[0], goarch: f[1], sizes: types.SizesFor("gc", f[1])}
	if v := strings.Fields(f[2]); len(v) > 0 && strings.HasPrefix(v[0], "go1") {
		t.goversion = v[0] // "go1.26.8"; a development toolchain's is left out
	}
	return t, nil
}

// goVersion returns the language version go vet gives its tool for u: its
// module's go directive (go1.16 when it has none), or the toolchain's.
func (t *target) goVersion(u *unit) string {
	if u.Module != nil {
		if u.Module.GoVersion == "" {
			return "go1.16" // the go command's default for a go.mod without one
		}
		return "go" + u.Module.GoVersion
	}
	return t.goversion
}

// parseError renders a parse error as the compiler would, at most the
// first ten.
func parseError(err error) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	var msgs []string
	for i, e := range list {
		if i == maxTypeErrors {
			break
		}
		msgs = append(msgs, e.Error())
	}
	return errors.New(strings.Join(msgs, "; "))
}

// absIn returns name, relative to dir unless absolute.
func absIn(dir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
