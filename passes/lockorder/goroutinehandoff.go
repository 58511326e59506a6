package lockorder

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A function that starts a goroutine to finish its work under the lock
// it took hands the lock over: Commit locks the mempool, and the update
// it starts releases it when done (go e.update(unlock), go func() {
// defer mu.Unlock(); ... }()). Its return with the lock held is no leak.

// handedToGoroutine reports whether, before every exit that keeps the
// lock, the function starts a goroutine that may release a lock of the
// class: its body, or a func value passed to it, is a closure of the
// function that unlocks it (itself or through a func value it calls).
func (c *checker) handedToGoroutine(f *summary.Func, e *leakExits) bool {
	class := e.first.Class
	if class == "" {
		return false
	}
	var gos []*ssa.Go
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			if g, ok := instr.(*ssa.Go); ok && c.releasesInGoroutine(f.Fn, g, class) {
				gos = append(gos, g)
			}
		}
	}
	if len(gos) == 0 {
		return false
	}
	for _, ex := range e.held {
		handed := false
		for _, g := range gos {
			if precedesExit(g, ex) {
				handed = true
				break
			}
		}
		if !handed {
			return false
		}
	}
	return true
}

// releasesInGoroutine reports whether the goroutine g starts may release
// a lock of class: through its body or a func value among its arguments,
// when that is a closure of fn.
func (c *checker) releasesInGoroutine(fn *ssa.Function, g *ssa.Go, class string) bool {
	vals := append([]ssa.Value{g.Call.Value}, g.Call.Args...)
	if g.Call.IsInvoke() {
		vals = vals[1:]
	}
	for _, v := range vals {
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		targets := c.res.FuncOrigin(fn, v).Targets
		if cl := summary.ClosureFn(v); cl != nil {
			targets = []*ssa.Function{cl}
		}
		for _, t := range targets {
			if t.Parent() == fn && c.mayReleaseClass(t, class, 0) {
				return true
			}
		}
	}
	return false
}
