package fix

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// A diffOp is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
type diffOp struct {
	kind byte
	text string // the line, with its newline if it has one
}

// unifiedDiff returns the unified diff that turns a into b, in the format of
// diff -u (with "\ No newline at end of file" markers), or "" if they are
// equal. oldName and newName go into the --- and +++ headers.
func unifiedDiff(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	ops := diffLines(splitLines(string(a)), splitLines(string(b)))
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)

	// Walk the script, cutting it into hunks: runs of changes with at most
	// 2*diffContext unchanged lines between them, plus diffContext lines of
	// context on each side.
	i := 0
	aLine, bLine := 0, 0 // lines of a and b before ops[i]
	for i < len(ops) {
		// Find the next change.
		j := i
		for j < len(ops) && ops[j].kind == ' ' {
			j++
		}
		if j == len(ops) {
			break
		}
		skip := max(j-i-diffContext, 0)
		aLine += skip
		bLine += skip
		start := i + skip
		// Extend the hunk while the next change is close enough.
		end := j
		for end < len(ops) {
			k := end
			for k < len(ops) && ops[k].kind != ' ' {
				k++
			}
			m := k
			for m < len(ops) && ops[m].kind == ' ' {
				m++
			}
			if m == len(ops) || m-k > 2*diffContext {
				end = min(k+diffContext, m)
				break
			}
			end = m
		}
		aCount, bCount := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aCount++
			}
			if op.kind != '-' {
				bCount++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(aLine, aCount), hunkRange(bLine, bCount))
		for _, op := range ops[start:end] {
			sb.WriteByte(op.kind)
			sb.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		aLine += aCount
		bLine += bCount
		i = end
	}
	return sb.String()
}

// hunkRange formats a hunk header range the way diff -u does: "start,count"
// with a 1-based start, "start" alone for one line, and for an empty range
// the line before it.
func hunkRange(before, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, count)
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns a shortest edit script from a to b (Myers' O(ND)
// algorithm, after stripping the common prefix and suffix). Deletions come
// before insertions within a change.
func diffLines(a, b []string) []diffOp {
	var ops []diffOp
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// myers computes a shortest edit script with Myers' greedy algorithm,
// keeping the frontier of every step for the backtrack.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		var ops []diffOp
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	limit := n + m
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: furthest x on diagonal k
	var trace [][]int
	var d int
search:
	for d = 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: insertion
			} else {
				x = v[off+k-1] + 1 // right: deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				break search
			}
		}
	}

	// Backtrack from (n, m), collecting the script in reverse.
	var rev []diffOp
	x, y := n, m
	for ; d > 0; d-- {
		vd := trace[d] // frontier after step d-1
		k := x - y
		var prevK int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, diffOp{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, diffOp{'+', b[y]})
		} else {
			x--
			rev = append(rev, diffOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{' ', a[x]})
	}
	ops := make([]diffOp, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return reorderChanges(ops)
}

// reorderChanges puts the deletions of each run of changes before its
// insertions, as diff -u prints them.
func reorderChanges(ops []diffOp) []diffOp {
	out := make([]diffOp, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		for _, op := range ops[i:j] {
			if op.kind == '-' {
				out = append(out, op)
			}
		}
		for _, op := range ops[i:j] {
			if op.kind == '+' {
				out = append(out, op)
			}
		}
		i = j
	}
	return out
}
