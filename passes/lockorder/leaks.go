package lockorder

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// This file reports lock leaks: a function that returns with a lock held
// on some paths and released on others, an early return or an error path
// that forgets the Unlock. The next Lock of that lock waits forever.

// lockContract matches the names of functions that acquire or release a
// lock for their caller by contract (lockX, tryLock, ...Locked, relock),
// and the doc comments that say so: "returns with mu held", "the caller
// must unlock", "owns the lock until Close releases it".
var (
	lockContractName = regexp.MustCompile(`(?i)lock`)
	lockContractDoc  = regexp.MustCompile(`(?i)\b(returns?|leaves?|keeps?|keeping)\b[^.]*\b(held|locked)\b|` +
		`\bcallers?\b[^.]*\b(unlock|release)|\block\b[^.]*\buntil\b|\buntil\b[^.]*\b(unlock|release)`)
)

// leakExits sorts the returns of a function for one lock.
type leakExits struct {
	held     []*ssa.Return // returns with the lock held, and nothing to release it
	released []*ssa.Return // returns after releasing it (an Unlock, or a defer)
	first    lockstate.Held
}

// leaks reports the lock leaks of f.
func (c *checker) leaks(f *summary.Func) {
	var rets []*ssa.Return
	for _, b := range f.Fn.Blocks {
		if ret, ok := lastInstr(b).(*ssa.Return); ok && f.Flow.Reachable(b) {
			rets = append(rets, ret)
		}
	}
	// The returns that keep a lock the function took, and those a defer
	// releases at.
	byKey := map[string]*leakExits{}
	var keys []string
	for _, ret := range rets {
		ev, _ := f.Flow.EventAt(ret)
		for _, h := range ev.State.Held {
			if h.Inherited || h.Restored || h.Key == "" || !h.Must && !h.Deferred {
				continue
			}
			e := byKey[h.Key]
			if e == nil {
				e = &leakExits{first: h}
				byKey[h.Key] = e
				keys = append(keys, h.Key)
			}
			if h.Deferred {
				e.released = append(e.released, ret)
			} else {
				e.held = append(e.held, ret)
			}
		}
	}
	if len(keys) == 0 || c.leakContract(f.Fn) || releasesInRangeFunc(f.Fn) {
		return
	}
	unlocks := c.unlockSites(f)
	for _, key := range keys {
		e := byKey[key]
		if len(e.held) == 0 {
			continue
		}
		// The returns an Unlock of the lock can reach, where it is no
		// longer held.
		for _, ret := range rets {
			if slices.Contains(e.held, ret) || slices.Contains(e.released, ret) || heldAt(f, ret, key) {
				continue
			}
			if slices.ContainsFunc(unlocks[key], func(u ssa.Instruction) bool { return summary.Precedes(u, ret) }) {
				e.released = append(e.released, ret)
			}
		}
		if len(e.released) == 0 || c.explainedByResults(f, e) || c.res.Unshared(f, e.first.ID, e.held[0]) || c.deferredMayRelease(f, e.first.Class) {
			continue // an object no other goroutine has seen yet cannot be locked again by one
		}
		name := c.lockName(e.first.ID, e.first.Pos)
		e.first.Name = name
		for _, ret := range e.held {
			pos := ret.Pos()
			if !pos.IsValid() {
				pos = closingBrace(f.Fn)
			}
			c.report(pos, "leak", fmt.Sprintf("return with %s held, but other paths of %s release it (%s): the next Lock of it waits forever",
				name, funcLabel(f.Fn), c.where(e.first)), e.first)
		}
	}
}

// funcLabel names a function as its source does: a closure is "the func
// literal in F".
func funcLabel(fn *ssa.Function) string {
	if fn.Parent() == nil {
		return fn.Name()
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return "the func literal in " + fn.Name()
}

// heldAt reports whether key is held, and not released by a defer, at ret.
func heldAt(f *summary.Func, ret *ssa.Return, key string) bool {
	ev, _ := f.Flow.EventAt(ret)
	for _, h := range ev.State.Held {
		if h.Key == key && !h.Deferred {
			return true
		}
	}
	return false
}

// unlockSites returns, by lock key, the instructions of f that release a
// lock: Unlock calls and calls of unlock wrappers.
func (c *checker) unlockSites(f *summary.Func) map[string][]ssa.Instruction {
	out := map[string][]ssa.Instruction{}
	for _, ev := range f.Flow.Events {
		call, ok := ev.Instr.(*ssa.Call)
		if !ok {
			continue
		}
		op := lockstate.OpOf(call.Common())
		switch op.Kind {
		case lockstate.Release:
			key := f.Flow.IDOf(op.Recv).Key
			out[key] = append(out[key], call)
		case lockstate.NoOp:
			_, rel := c.res.CallEffects(f.Flow, call.Common(), summary.Releases)
			for _, e := range rel {
				out[e.Lock.Key] = append(out[e.Lock.Key], call)
			}
		}
	}
	return out
}

// leakContract reports whether fn acquires or releases locks for its
// caller by contract: by its name, or by its doc comment or its receiver
// type's.
func (c *checker) leakContract(fn *ssa.Function) bool {
	for p := fn; p != nil; p = p.Parent() {
		if lockContractName.MatchString(p.Name()) {
			return true
		}
	}
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok {
		return false
	}
	if decl.Doc != nil && lockContractDoc.MatchString(decl.Doc.Text()) {
		return true
	}
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && lockContractDoc.MatchString(c.typeDoc(n.Obj().Pos())) {
			return true
		}
	}
	return false
}

// typeDoc returns the doc comment of the type declared at pos, or "".
func (c *checker) typeDoc(pos token.Pos) string {
	for _, file := range c.pass.Files {
		if pos < file.Pos() || pos > file.End() {
			continue
		}
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if ts.Name.Pos() != pos {
					continue
				}
				if ts.Doc != nil {
					return ts.Doc.Text()
				}
				if gd.Doc != nil {
					return gd.Doc.Text()
				}
				return ""
			}
		}
	}
	return ""
}

// explainedByResults reports whether the returns that keep the lock
// return success (nil error, true) and those that release it failure (an
// error, false) in one result: the result tells the caller that it now
// holds the lock, as with a conditional lock function. Holding it on the
// failure path instead is the classic leak: an error path that forgets the
// Unlock.
func (c *checker) explainedByResults(f *summary.Func, e *leakExits) bool {
	results := f.Fn.Signature.Results()
	for i := range results.Len() {
		heldVal, ok1 := commonResult(e.held, i)
		relVal, ok2 := commonResult(e.released, i)
		if !ok1 || !ok2 {
			continue
		}
		t := results.At(i).Type()
		switch {
		case types.Identical(t, types.Universe.Lookup("error").Type()) && heldVal == "nil" && relVal == "non-nil",
			isBool(t) && heldVal == "true" && relVal == "false":
			return true
		}
	}
	for _, ret := range e.held {
		for _, v := range ret.Results {
			if f.Flow.IsUnlocker(v) {
				return true // it hands the caller the Unlock
			}
		}
	}
	return false
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// commonResult returns what the i'th result of every return is, when it is
// the same known kind for all: a constant's value, "nil", or "non-nil" for
// a value that cannot be nil (an error made here, a package-level error).
func commonResult(rets []*ssa.Return, i int) (string, bool) {
	common := ""
	for _, ret := range rets {
		if i >= len(ret.Results) {
			return "", false
		}
		v := resultKind(ret.Results[i])
		if v == "" || common != "" && v != common {
			return "", false
		}
		common = v
	}
	return common, common != ""
}

func resultKind(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil {
			return "nil"
		}
		if v.Value.Kind() == constant.Bool {
			return v.Value.String()
		}
		return "const " + v.Value.ExactString()
	case *ssa.MakeInterface, *ssa.Alloc, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeClosure, *ssa.MakeSlice:
		return "non-nil"
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL && g.Pkg != nil {
			return "non-nil" // a package-level error value, errClosed
		}
	case *ssa.Call:
		if fn := v.Call.StaticCallee(); fn != nil && fn.Pkg != nil {
			switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
			case "errors.New", "fmt.Errorf":
				return "non-nil"
			}
		}
	}
	return ""
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// closingBrace is where an implicit return happens.
func closingBrace(fn *ssa.Function) token.Pos {
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		if s.Body != nil {
			return s.Body.Rbrace
		}
	case *ast.FuncLit:
		return s.Body.Rbrace
	}
	return fn.Pos()
}

// releasesInRangeFunc reports whether a range-over-func loop body of fn
// releases a lock: the body is a closure, and the engine does not carry
// its releases back to the returns of fn that the body's return
// statements become, so fn's exits cannot be judged.
func releasesInRangeFunc(fn *ssa.Function) bool {
	for _, af := range fn.AnonFuncs {
		if af.Synthetic == "range-over-func yield" {
			for call, op := range lockOps(af) {
				if _, ok := call.(*ssa.Call); ok && op.Kind == lockstate.Release {
					return true
				}
			}
		}
		if releasesInRangeFunc(af) {
			return true
		}
	}
	return false
}

// deferredMayRelease reports whether a deferred closure of f may release a
// lock of class at return, on some of its paths: defer func() { if
// !unlocked { mu.Unlock() } }() covers the early returns, and which
// returns it covers depends on a flag the analysis does not follow.
func (c *checker) deferredMayRelease(f *summary.Func, class string) bool {
	if class == "" {
		return false
	}
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			callee, _ := lockstate.CalledFunc(f.Fn, d.Call.Value)
			if callee == nil || callee.Parent() != f.Fn {
				continue
			}
			if g := c.res.Func(callee); g != nil && g.Flow != nil && releasesClass(g, class) {
				return true
			}
		}
	}
	return false
}

// releasesClass reports whether g unlocks a lock of class on some path.
func releasesClass(g *summary.Func, class string) bool {
	for _, op := range lockOps(g.Fn) {
		if op.Kind == lockstate.Release && g.Flow.IDOf(op.Recv).Class == class {
			return true
		}
	}
	return false
}
