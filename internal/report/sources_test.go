package report

import (
	"path/filepath"
	"strings"
	"testing"
)

const funcsSrc = `package p

import "sync"

type T struct{ mu sync.Mutex }

type G[K comparable, V any] struct{ mu sync.Mutex }

var pkgLevel = func() {
	_ = 1
}

func Plain() {
	_ = 1
}

func (t T) Value() {
	_ = 1
}

func (t *T) Pointer() {
	go func() {
		_ = 1
	}()
}

func (g *G[K, V]) Generic() {
	_ = 1
}
`

// lineOf returns the 1-based line of the first line of src containing s.
func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not found", s)
	return 0
}

func TestEnclosingFunc(t *testing.T) {
	name := writeFile(t, t.TempDir(), "p.go", funcsSrc)
	src := NewSources()
	lines := strings.Split(funcsSrc, "\n")
	for _, tc := range []struct {
		after string // the finding is on the first "_ = 1" line after this one
		want  string
	}{
		{"var pkgLevel", ""},
		{"func Plain", "Plain"},
		{"func (t T) Value", "(T).Value"},
		{"func (t *T) Pointer", "(*T).Pointer"},
		{"func (g *G[K, V]) Generic", "(*G).Generic"},
	} {
		line := lineOf(t, funcsSrc, tc.after)
		for !strings.Contains(lines[line-1], "_ = 1") {
			line++
		}
		if got := src.EnclosingFunc(name, line, 2); got != tc.want {
			t.Errorf("function at line %d (after %q) = %q, want %q", line, tc.after, got, tc.want)
		}
	}
	if got := src.EnclosingFunc(name, 1, 1); got != "" {
		t.Errorf("function at the package clause = %q", got)
	}
	if got := src.EnclosingFunc(filepath.Join(t.TempDir(), "missing.go"), 3, 1); got != "" {
		t.Errorf("function in a missing file = %q", got)
	}
}
