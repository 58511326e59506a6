// Package testfile writes the source files of the modules that tests build.
package testfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes content to dir/name, creating its directories, and returns
// the absolute name.
func Write(t testing.TB, dir, name, content string) string {
	t.Helper()
	abs := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(abs), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	return abs
}
