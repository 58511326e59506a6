package profiler

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/google/pprof/profile"
)

// What a lock holder does while it holds: the CPU profile's samples whose
// stacks are inside a mutex hotspot's critical section, attributed to the
// callees they ran in. It explains a hot lock that no static finding
// explains, such as a callback judged safe that turns out to be slow.

// A Holding is what the holder of a mutex hotspot's lock did on CPU while
// holding it.
type Holding struct {
	Lock    string   `json:"lock"`   // the lock as the source writes it, "l.mu"
	CPUNS   int64    `json:"cpu_ns"` // on-CPU time inside the critical section
	Callees []Callee `json:"callees"`
	Summary string   `json:"summary"` // "l.mu held in Ledger.Post, 97% of on-CPU time under it in NewLedger.func1"
}

// A Callee is a function called from a critical section, with its share of
// the on-CPU time under the lock. The holder's own code is the callee
// "(itself)".
type Callee struct {
	Function string  `json:"function"`
	CPUNS    int64   `json:"cpu_ns"`
	Share    float64 `json:"share"`
}

// maxCallees is how many callees a Holding lists.
const maxCallees = 3

// attributeHolding sets the Holding of each mutex hotspot whose critical
// section the source shows, from the merged CPU profile.
func attributeHolding(hs []*Hotspot, cpu *profile.Profile, decls *declIndex) {
	if cpu == nil || !isCPU(cpu) {
		return
	}
	for _, h := range hs {
		if h.Kind != Mutex || h.absFile == "" {
			continue
		}
		sec, ok := decls.section(h.absFile, h.Line)
		if !ok {
			continue
		}
		by := map[string]int64{}
		var total int64
		for _, s := range cpu.Sample {
			if len(s.Value) < 2 || s.Value[1] <= 0 {
				continue
			}
			frames := stack(s)
			for k, f := range frames {
				if f.fn != h.Function || f.line < sec.from || f.line > sec.to || !sameFile(f.file, h.absFile) {
					continue
				}
				callee := "(itself)"
				if k > 0 {
					callee = frames[k-1].fn
				}
				by[callee] += s.Value[1]
				total += s.Value[1]
				break
			}
		}
		if total == 0 {
			continue
		}
		hold := &Holding{Lock: sec.lock, CPUNS: total}
		for fn, ns := range by {
			hold.Callees = append(hold.Callees, Callee{Function: fn, CPUNS: ns, Share: float64(ns) / float64(total)})
		}
		slices.SortFunc(hold.Callees, func(a, b Callee) int {
			return cmp.Or(cmp.Compare(b.CPUNS, a.CPUNS), cmp.Compare(a.Function, b.Function))
		})
		hold.Callees = hold.Callees[:min(len(hold.Callees), maxCallees)]
		top := hold.Callees[0]
		where := "in " + shortName(top.Function)
		if top.Function == "(itself)" {
			where = "in its own code"
		}
		hold.Summary = fmt.Sprintf("%s held in %s, %s of on-CPU time under it %s", sec.lock, shortName(h.Function), percent(top.Share), where)
		h.Holding = hold
	}
}

// A section is a critical section in source: the lines from a Lock to the
// Unlock that ends it, or to the end of the function for a deferred one.
type section struct {
	lock     string
	from, to int
}

// lockCall is a Lock, RLock, Unlock or RUnlock call in a function body.
type lockCall struct {
	recv     string
	unlock   bool
	deferred bool
	line     int
}

// section returns the critical section that a mutex profile's holder
// frame at line of file ends: the Unlock called on that line, or, when
// the line calls none (a deferred Unlock runs at the return), the section
// of a deferred Unlock that encloses the line.
func (d *declIndex) section(file string, line int) (section, bool) {
	fn, end := d.innermostFunc(file, line)
	if fn == nil {
		return section{}, false
	}
	calls := lockCalls(d.fset, fn)
	lockBefore := func(recv string, line int) int {
		at := 0
		for _, c := range calls {
			if !c.unlock && c.recv == recv && c.line <= line {
				at = max(at, c.line)
			}
		}
		return at
	}
	for _, c := range calls {
		if c.unlock && !c.deferred && c.line == line {
			if from := lockBefore(c.recv, line); from > 0 {
				return section{lock: c.recv, from: from, to: line}, true
			}
		}
	}
	best := section{}
	for _, c := range calls {
		if c.unlock && c.deferred && c.line <= line {
			if from := lockBefore(c.recv, c.line); from > best.from {
				best = section{lock: c.recv, from: from, to: end}
			}
		}
	}
	return best, best.from > 0
}

// innermostFunc returns the body of the innermost function declaration or
// literal of file that contains line, and its last line.
func (d *declIndex) innermostFunc(file string, line int) (*ast.BlockStmt, int) {
	f := d.parse(file)
	if f == nil {
		return nil, 0
	}
	var body *ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		var b *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			b = n.Body
		case *ast.FuncLit:
			b = n.Body
		}
		if b != nil && d.fset.Position(b.Pos()).Line <= line && line <= d.fset.Position(b.End()).Line {
			body = b // later (inner) functions win
		}
		return n == nil || d.fset.Position(n.Pos()).Line <= line && line <= d.fset.Position(n.End()).Line
	})
	if body == nil {
		return nil, 0
	}
	return body, d.fset.Position(body.End()).Line
}

// lockCalls lists the lock calls of a function body, not of the function
// literals inside it.
func lockCalls(fset *token.FileSet, body *ast.BlockStmt) []lockCall {
	var out []lockCall
	deferred := map[*ast.CallExpr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			deferred[n.Call] = true
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || len(n.Args) != 0 {
				return true
			}
			switch sel.Sel.Name {
			case "Lock", "RLock", "Unlock", "RUnlock":
				out = append(out, lockCall{
					recv:     types.ExprString(sel.X),
					unlock:   sel.Sel.Name == "Unlock" || sel.Sel.Name == "RUnlock",
					deferred: deferred[n],
					line:     fset.Position(n.Pos()).Line,
				})
			}
		}
		return true
	})
	return out
}
