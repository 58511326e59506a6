package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// GuardsState reports whether the lock class guards some state of the
// package: somewhere in the package, while a lock of the class is held,
// a field, a package-level variable, an element or a map is read or
// written, or a function of the package runs. A lock that guards nothing
// serialises only the operations it is held across (a mutex that keeps
// wg.Add from racing wg.Wait, a connection's write mutex held across
// conn.Write): holding it across them is its purpose. Neither the
// blocking operation itself nor the load of the field it runs on, when
// that field is set only while its object is built (see handles.go),
// counts as state.
func (r *Result) GuardsState(class string) bool {
	if class == "" {
		return true
	}
	return r.a.guarding[class]
}

// A stateUse says what an instruction does with state a lock can guard.
type stateUse int

const (
	noState stateUse = iota
	// touches: it reads or writes state other goroutines can see, or
	// runs a function of the package (which may).
	touches
	// handleLoad: it loads a field of the package only to run blocking
	// operations on its value (t.conn in t.conn.Write(b)); it is state
	// unless the field never changes once its object is shared, which is
	// decided when the package is analysed (settleHandles).
	handleLoad
)

// visitor returns the lock-state visitor of fn that records which lock
// classes guard state (see GuardsState).
func (a *analyzer) visitor(fn *ssa.Function) func(ssa.Instruction, lockstate.State) {
	return func(instr ssa.Instruction, s lockstate.State) {
		if len(s.Held) == 0 {
			return
		}
		if _, isCall := instr.(ssa.CallInstruction); isCall {
			// Every critical section ends in a call (its unlock), or
			// returns the lock held from a call.
			a.noteHolders(fn, s.Held)
		} else if _, isRet := instr.(*ssa.Return); isRet {
			a.noteHolders(fn, s.Held)
		}
		switch a.stateUse(fn, instr) {
		case touches:
			for _, h := range s.Held {
				a.guarding[h.Class] = true
			}
		case handleLoad:
			load := instr.(*ssa.UnOp)
			for _, h := range s.Held {
				if !a.guarding[h.Class] {
					a.handleLoads[h.Class] = append(a.handleLoads[h.Class], load)
				}
			}
		}
	}
}

// stateUse says what instr does with state (see stateUse).
func (a *analyzer) stateUse(fn *ssa.Function, instr ssa.Instruction) stateUse {
	switch instr := instr.(type) {
	case *ssa.Store:
		return used(!ownVar(fn, instr.Addr))
	case *ssa.UnOp:
		if instr.Op != token.MUL || ownVar(fn, instr.X) {
			return noState
		}
		if a.loadsHandle(instr) {
			return handleLoad
		}
		return touches
	case *ssa.MapUpdate, *ssa.Lookup:
		return touches
	case *ssa.Call:
		if op := lockstate.OpOf(instr.Common()); op.Kind != lockstate.NoOp {
			return noState
		}
		callee := StaticCallee(instr.Common())
		if callee != nil && (callee.Pkg == a.pkg || callee.Pkg == nil) {
			return touches // the package's code, even one the -block flag names
		}
		if a.blockingOp(instr.Common()) {
			return noState // the operation a lock is held across, not what it guards
		}
		if c := instr.Common(); c.IsInvoke() && a.handleCall(c) {
			return noState // a deadline of the connection the operation writes to
		}
		if callee == nil {
			return used(!instr.Call.IsInvoke() || !quietPkg(instr.Call.Method.Pkg()))
		}
		return noState
	}
	return noState
}

func used(touch bool) stateUse {
	if touch {
		return touches
	}
	return noState
}

// blockingOp reports whether a call is a blocking operation of the
// catalogue (conn.Write, f.Sync, time.Sleep, io.Copy): what heldcall
// reports a lock held across.
func (a *analyzer) blockingOp(c *ssa.CallCommon) bool {
	if c.IsInvoke() {
		_, ok := a.cat.Blocking(c.Method)
		return ok
	}
	callee := StaticCallee(c)
	if callee == nil {
		return false
	}
	_, ok := a.cat.Direct(FuncObject(callee))
	return ok
}

// ownVar reports whether addr is a variable of fn (not a captured one).
func ownVar(fn *ssa.Function, addr ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	return ok && a.Parent() == fn
}
