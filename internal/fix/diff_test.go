package fix

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/fix/fixtest"
)

func TestUnifiedDiffGolden(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	b := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\nadded\n"
	want := `--- a/x.go
+++ b/x.go
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -12,3 +12,4 @@
 l
 m
 n
+added
`
	if got := unifiedDiff("a/x.go", "b/x.go", []byte(a), []byte(b)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", []byte(a), []byte(a)); got != "" {
		t.Errorf("equal inputs: %q", got)
	}
}

func TestUnifiedDiffNoNewlineAndEmpty(t *testing.T) {
	got := unifiedDiff("a", "b", []byte("x\ny"), []byte("x\ny\n"))
	want := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = unifiedDiff("a", "b", nil, []byte("x\n"))
	if want := "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"; got != want {
		t.Errorf("from empty: got %q, want %q", got, want)
	}
	got = unifiedDiff("a", "b", []byte("x\n"), nil)
	if want := "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"; got != want {
		t.Errorf("to empty: got %q, want %q", got, want)
	}
}

// lcs returns the length of the longest common subsequence of two line lists.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestUnifiedDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	gen := func() string {
		var sb strings.Builder
		n := rng.Intn(40)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&sb, "%c\n", 'a'+rng.Intn(4))
		}
		if rng.Intn(4) == 0 {
			sb.WriteString("tail")
		}
		return sb.String()
	}
	for iter := 0; iter < 2000; iter++ {
		a := gen()
		var b string
		if rng.Intn(2) == 0 {
			b = gen()
		} else { // a few local changes, as fixes make
			lines := splitLines(a)
			for k := rng.Intn(3); k >= 0 && len(lines) > 0; k-- {
				i := rng.Intn(len(lines))
				lines = append(lines[:i], append([]string{"changed\n"}, lines[i+1:]...)...)
			}
			b = strings.Join(lines, "")
		}
		diff := unifiedDiff("a", "b", []byte(a), []byte(b))
		if a == b {
			if diff != "" {
				t.Fatalf("equal inputs gave a diff")
			}
			continue
		}
		if got := fixtest.ApplyUnified(t, a, diff); got != b {
			t.Fatalf("applying the diff of\n%q\nto\n%q\ngave\n%q\ndiff:\n%s", a, b, got, diff)
		}
		ops := diffLines(splitLines(a), splitLines(b))
		changes := 0
		for _, op := range ops {
			if op.kind != ' ' {
				changes++
			}
		}
		al, bl := splitLines(a), splitLines(b)
		if minimal := len(al) + len(bl) - 2*lcs(al, bl); changes != minimal {
			t.Fatalf("%d changed lines, minimum is %d, for\n%q\n%q", changes, minimal, a, b)
		}
	}
}
