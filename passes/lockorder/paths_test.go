package lockorder

import (
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// Under go vet each package is analysed alone: the other package's file of
// a cycle's far half is not parsed, and at best export data describes it
// with one-byte lines. posOf still yields a position that prints as the
// file's line (and column, when the file set's lines allow it).
func TestPosOfOtherPackage(t *testing.T) {
	fset := token.NewFileSet()
	// A file as export data describes it: lines of one byte.
	fake := fset.AddFile("/src/connpool/conn.go", -1, 40)
	lines := make([]int, 40)
	for i := range lines {
		lines[i] = i
	}
	fake.SetLines(lines)
	c := &checker{pass: &analysis.Pass{Fset: fset}}
	for _, tc := range []struct {
		file      string
		line, col int
		want      string
	}{
		{"/src/connpool/pool.go", 34, 12, "/src/connpool/pool.go:34:12"},
		{"/src/connpool/pool.go", 31, 3, "/src/connpool/pool.go:31:3"},
		{"/src/connpool/conn.go", 17, 9, "/src/connpool/conn.go:17:1"},
		{"/src/connpool/conn.go", 70, 2, "/src/connpool/conn.go:70:2"},
	} {
		if got := fset.Position(c.posOf(tc.file, tc.line, tc.col)).String(); got != tc.want {
			t.Errorf("posOf(%s, %d, %d) = %s, want %s", tc.file, tc.line, tc.col, got, tc.want)
		}
	}
	if c.posOf("", 3, 1).IsValid() || c.posOf("/src/x.go", 0, 1).IsValid() {
		t.Error("posOf gave a position for no file or no line")
	}
}
