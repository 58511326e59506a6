// Package fixtest applies unified diffs, strictly, for the tests of
// lockaudit's -diff output.
package fixtest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var hunkRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// ApplyUnified applies a unified diff to a, checking every context and
// deleted line and every hunk count, and returns the result.
func ApplyUnified(t testing.TB, a, diff string) string {
	t.Helper()
	src := strings.SplitAfter(a, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		t.Fatalf("bad header in %q", diff)
	}
	var out []string
	pos := 0 // next line of src to copy
	atoi := func(s string, def int) int {
		if s == "" {
			return def
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	for i := 2; i < len(lines) && lines[i] != ""; {
		m := hunkRE.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			t.Fatalf("bad hunk header %q in\n%s", lines[i], diff)
		}
		aStart, aCount := atoi(m[1], 0), atoi(m[2], 1)
		bCount := atoi(m[4], 1)
		first := aStart - 1
		if aCount == 0 {
			first = aStart
		}
		if first < pos {
			t.Fatalf("hunks overlap or go backwards in\n%s", diff)
		}
		out = append(out, src[pos:first]...)
		pos = first
		i++
		gotA, gotB := 0, 0
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			text := l[1:]
			if i < len(lines) && strings.HasPrefix(lines[i], `\ No newline`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != text {
					t.Fatalf("line %d: diff has %q, source has %q", pos+1, text, src[min(pos, len(src)-1)])
				}
				pos++
				gotA++
				if l[0] == ' ' {
					out = append(out, text)
					gotB++
				}
			case '+':
				out = append(out, text)
				gotB++
			default:
				t.Fatalf("bad diff line %q", l)
			}
		}
		if gotA != aCount || gotB != bCount {
			t.Fatalf("hunk %s counts %d,%d lines, header says %d,%d", m[0], gotA, gotB, aCount, bCount)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, "")
}
