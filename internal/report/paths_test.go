package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lockaudit/lockaudit/internal/testfile"
)

// writeFile writes content to dir/name and returns the absolute name.
var writeFile = testfile.Write

func TestPaths(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "mod/go.mod", "module m\n")
	cwd := filepath.Join(root, "mod", "sub")
	if err := os.MkdirAll(cwd, 0o777); err != nil {
		t.Fatal(err)
	}
	p := NewPaths(cwd)
	if p.Root != root {
		t.Fatalf("root = %q, want the repository root %q", p.Root, root)
	}
	inCwd := filepath.Join(cwd, "x", "a.go")
	inMod := filepath.Join(root, "mod", "b.go")
	outside := "/elsewhere/c.go"
	for _, tc := range []struct{ abs, display, rel string }{
		{inCwd, filepath.Join("x", "a.go"), "mod/sub/x/a.go"},
		{inMod, inMod, "mod/b.go"},
		{outside, outside, outside},
	} {
		if got := p.Display(tc.abs); got != tc.display {
			t.Errorf("Display(%q) = %q, want %q", tc.abs, got, tc.display)
		}
		if got := p.Rel(tc.abs); got != tc.rel {
			t.Errorf("Rel(%q) = %q, want %q", tc.abs, got, tc.rel)
		}
	}
	if uri, rel := p.uri("mod/a b.go"); uri != "mod/a%20b.go" || !rel {
		t.Errorf("uri of a relative path = %q, %v", uri, rel)
	}
	if uri, rel := p.uri(outside); uri != "file:///elsewhere/c.go" || rel {
		t.Errorf("uri of an absolute path = %q, %v", uri, rel)
	}

	// Without a repository, the module root.
	noRepo := t.TempDir()
	writeFile(t, noRepo, "go.mod", "module m\n")
	sub := filepath.Join(noRepo, "pkg")
	if err := os.Mkdir(sub, 0o777); err != nil {
		t.Fatal(err)
	}
	if findUp(noRepo, ".git") != "" {
		t.Skip("the temporary directory is inside a repository")
	}
	if got := NewPaths(sub).Root; got != noRepo {
		t.Errorf("root without repository = %q, want module root %q", got, noRepo)
	}
}
