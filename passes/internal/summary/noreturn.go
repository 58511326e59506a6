package summary

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// This file finds the paths on which a function dies: every way on from
// them ends in a panic or in a call that never returns (os.Exit,
// runtime.Goexit, log.Fatal, a t.Fatal, or a function of the program that
// always ends in one of those). What blocks on such a path blocks on the
// way to a crash: a fatal-error helper that writes a repair marker before
// it panics holds nobody up for long, and nobody changes a lock's scope
// for it. Blocking there is not reported (heldcall) and not part of the
// function's summary; the locks taken there still are (a deadlock before
// the crash still hangs).

// exits lists, by name and package, the functions that never return
// beyond those whose bodies say so: their bodies end in the runtime.
var exits = map[string][]string{
	"Exit":   {"os", "syscall"},
	"Goexit": {"runtime"},
}

// computeNoReturn flags the package's functions that never return
// normally (Summary.NoReturn) and records each function's dying blocks. It
// runs over the strongly connected components, callees first; within a
// component the flags are a least fixpoint, so mutual recursion without
// an exit is not a function that dies.
func (a *analyzer) computeNoReturn(sccs [][]*ssa.Function) {
	a.dying = map[*ssa.Function][]bool{}
	for _, scc := range sccs {
		for changed := true; changed; {
			changed = false
			for _, fn := range scc {
				d := a.dyingBlocks(fn)
				a.dying[fn] = d
				if len(fn.Blocks) > 0 && d != nil && d[0] && !a.funcs[fn].Summary.NoReturn {
					a.funcs[fn].Summary.NoReturn = true
					changed = true
				}
			}
		}
	}
}

// dyingBlocks flags, by block index, the blocks of fn from which every path
// ends in a panic or a call that never returns, or returns nil if there
// are none. A function that may recover has none: its panics may return.
func (a *analyzer) dyingBlocks(fn *ssa.Function) []bool {
	var dying []bool
	mark := func(b *ssa.BasicBlock) {
		if dying == nil {
			dying = make([]bool, len(fn.Blocks))
		}
		dying[b.Index] = true
	}
	for _, b := range fn.Blocks {
		if a.diesIn(fn, b) {
			mark(b)
		}
	}
	if dying == nil || mayRecover(fn) {
		return nil // most functions: no panic, no exit, no defers to read
	}
	// A least fixpoint: a block dies once all its successors do. Blocks
	// are visited in reverse order, so most of a function's exits settle
	// in one pass.
	for changed := true; changed; {
		changed = false
		for i := len(fn.Blocks) - 1; i >= 0; i-- {
			b := fn.Blocks[i]
			if dying[b.Index] || len(b.Succs) == 0 {
				continue
			}
			all := true
			for _, s := range b.Succs {
				all = all && dying[s.Index]
			}
			if all {
				dying[b.Index], changed = true, true
			}
		}
	}
	return dying
}

// mayRecover reports whether a function deferred by fn may call recover:
// a function of the program whose body does, a func value, or a function
// of another module, whose body is not at hand (a panic handler deferred
// from a helper package). The standard library's functions that are
// deferred (an Unlock, a Close, a cancel) do not recover.
func mayRecover(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if d.Call.IsInvoke() {
				continue // a method of an interface: Close and the like
			}
			callee, _ := lockstate.CalledFunc(fn, d.Call.Value)
			switch {
			case callee == nil:
				if _, ok := d.Call.Value.(*ssa.Builtin); !ok {
					return true
				}
			case len(callee.Blocks) == 0:
				if p := callee.Package(); p == nil || !isStd(p.Pkg.Path()) {
					return true
				}
			case callsRecover(callee):
				return true
			}
		}
	}
	return false
}

// callsRecover reports whether fn calls the builtin recover.
func callsRecover(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok {
				if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "recover" {
					return true
				}
			}
		}
	}
	return false
}

// diesIn reports whether block b of fn itself ends in a panic or calls a
// function that never returns.
func (a *analyzer) diesIn(fn *ssa.Function, b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch instr := instr.(type) {
		case *ssa.Panic:
			return true
		case *ssa.Call:
			if a.neverReturns(fn, instr.Common()) {
				return true
			}
		}
	}
	return false
}

// neverReturns reports whether the call c, in fn, never returns.
func (a *analyzer) neverReturns(fn *ssa.Function, c *ssa.CallCommon) bool {
	if c.IsInvoke() {
		return false
	}
	callee, _ := lockstate.CalledFunc(fn, c.Value)
	if callee == nil {
		return false
	}
	// The bare name first: neverReturns runs for every call of the package.
	if pkgs, ok := exits[callee.Name()]; ok {
		if obj := FuncObject(callee); obj != nil && obj.Pkg() != nil && obj.Signature().Recv() == nil &&
			slices.Contains(pkgs, obj.Pkg().Path()) {
			return true
		}
	}
	if callee.Pkg != fn.Pkg && loggerDies(callee) {
		return true
	}
	s := a.summary(callee)
	return s != nil && s.NoReturn
}

// dyingLogs names the logging calls that end the program or panic by
// contract, whatever the logger: Fatal exits after writing, Panic panics
// with the message. Their bodies often decide it from a level read at run
// time (a switch on the level string, a hook run after the write), which
// the summaries cannot follow.
var dyingLogs = map[string]bool{
	"Fatal": true, "Fatalf": true, "Fatalln": true, "Fatalw": true,
	"Panic": true, "Panicf": true, "Panicln": true, "Panicw": true,
}

// loggerDies reports whether callee is such a call of a logger: a
// function or method of another package named in dyingLogs, whose
// parameters are a message (a string, or a format and its
// arguments) and nothing more. A function of the package itself is judged
// by its body.
func loggerDies(callee *ssa.Function) bool {
	if !dyingLogs[callee.Name()] {
		return false
	}
	obj := FuncObject(callee)
	if obj == nil || !obj.Exported() {
		return false
	}
	sig := obj.Signature()
	params := sig.Params()
	if params.Len() == 0 || sig.Results().Len() != 0 {
		return false
	}
	switch first := params.At(0).Type().Underlying().(type) {
	case *types.Basic:
		if first.Info()&types.IsString == 0 {
			return false
		}
	case *types.Slice:
		if !sig.Variadic() || params.Len() != 1 {
			return false
		}
	default:
		return false
	}
	return params.Len() == 1 || sig.Variadic()
}

// Dying reports whether instruction instr of f is on a path that ends in a
// panic or a call that never returns.
func (r *Result) Dying(f *Func, instr ssa.Instruction) bool {
	if f == nil || instr.Block() == nil {
		return false
	}
	return r.a.dyingAt(f.Fn, instr.Block())
}

func (a *analyzer) dyingAt(fn *ssa.Function, b *ssa.BasicBlock) bool {
	d := a.dying[fn]
	return d != nil && b.Index < len(d) && d[b.Index]
}
