package summary

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// callees returns the functions of the package (as mapped by resolve, which
// returns nil for other functions) that fn calls directly
// (including closures it invokes, defers or starts as goroutines, and
// closures it passes as arguments), in instruction order, without
// duplicates. A goroutine's function is ordered before the function that
// starts it because a lock it releases is handed over to it.
func callees(fn *ssa.Function, resolve func(*ssa.Function) *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	add := func(v ssa.Value) {
		g, _ := lockstate.CalledFunc(fn, v)
		if g != nil {
			g = resolve(g)
		}
		if g != nil && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var c *ssa.CallCommon
			switch instr := instr.(type) {
			case *ssa.Call:
				c = instr.Common()
			case *ssa.Defer:
				c = instr.Common()
			case *ssa.Go:
				c = instr.Common()
			case *ssa.Return:
				// A func literal it returns: an unlock function made
				// for the caller is judged by what the literal does.
				for _, r := range instr.Results {
					if _, ok := r.(*ssa.MakeClosure); ok {
						add(r)
					}
				}
				continue
			default:
				continue
			}
			add(c.Value)
			for _, arg := range c.Args {
				add(arg)
			}
		}
	}
	return out
}

// sccOrder returns the functions grouped in strongly connected components of
// the call graph, callees before callers (Tarjan's algorithm).
func sccOrder(funcs []*ssa.Function, edges map[*ssa.Function][]*ssa.Function) [][]*ssa.Function {
	index := map[*ssa.Function]int{}
	low := map[*ssa.Function]int{}
	onStack := map[*ssa.Function]bool{}
	var stack []*ssa.Function
	var out [][]*ssa.Function
	next := 0

	// An explicit stack keeps deep call chains from exhausting the
	// goroutine stack.
	type frame struct {
		fn *ssa.Function
		i  int
	}
	for _, root := range funcs {
		if _, ok := index[root]; ok {
			continue
		}
		frames := []frame{{fn: root}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if f.i < len(edges[f.fn]) {
				g := edges[f.fn][f.i]
				f.i++
				if _, ok := index[g]; !ok {
					index[g], low[g] = next, next
					next++
					stack = append(stack, g)
					onStack[g] = true
					frames = append(frames, frame{fn: g})
				} else if onStack[g] && index[g] < low[f.fn] {
					low[f.fn] = index[g]
				}
				continue
			}
			fn := f.fn
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				parent := frames[len(frames)-1].fn
				if low[fn] < low[parent] {
					low[parent] = low[fn]
				}
			}
			if low[fn] == index[fn] {
				var scc []*ssa.Function
				for {
					top := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[top] = false
					scc = append(scc, top)
					if top == fn {
						break
					}
				}
				out = append(out, scc)
			}
		}
	}
	return out
}
