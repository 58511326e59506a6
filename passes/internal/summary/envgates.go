package summary

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A branch taken only when an environment variable is set is a debug or
// operator switch: a TLS key log opened when SSLKEYLOGFILE names a file,
// a trace dumped when TRACE_DIR is set. What blocks there under a lock
// does not run in the program as it is normally run, so it is only
// plausible:
//
//	if n := os.Getenv("SSLKEYLOGFILE"); n != "" {
//		f, err := os.OpenFile(n, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
//
// The test is made in the function itself, on os.Getenv's result against
// "" or on os.LookupEnv's found flag; the branch must dominate the block.
//
// A branch on a bool package variable or field named as a debug switch
// (IsDebugFileReadWrite, debugLog, opts.Debug: "debug" in its name) is the
// same kind of switch, set by a flag or a developer:
//
//	if IsDebugFileReadWrite {
//		fh.mirrorFile, _ = os.OpenFile("/tmp/x"+name, os.O_RDWR|os.O_CREATE, 0o600)
//	}

// EnvGate returns why instr, of function f, is only plausible when a test
// that an environment variable is set guards it.
func (r *Result) EnvGate(f *Func, instr ssa.Instruction) (why string, ok bool) {
	if f == nil || instr.Block() == nil {
		return "", false
	}
	if why, ok := r.a.envGatesOf(f.Fn)[instr.Block()]; ok {
		return why, true
	}
	return "", false
}

// envGatesOf returns the blocks of fn that run only when an environment
// variable is set or a debug switch is on, with the note's reason (nil
// when fn tests none), computed once.
func (a *analyzer) envGatesOf(fn *ssa.Function) map[*ssa.BasicBlock]string {
	if g, ok := a.envGates[fn]; ok {
		return g
	}
	if a.envGates == nil {
		a.envGates = map[*ssa.Function]map[*ssa.BasicBlock]string{}
	}
	g := envGates(fn)
	a.envGates[fn] = g
	return g
}

// envGates computes envGatesOf in one walk of the dominator tree: a
// block is gated when it is the successor an environment test takes when
// the variable is set (its only predecessor), or when its immediate
// dominator is gated.
func envGates(fn *ssa.Function) map[*ssa.BasicBlock]string {
	tests := false
	for _, b := range fn.Blocks {
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			if _, _, ok := envTest(iff.Cond); ok {
				tests = true
				break
			}
		}
	}
	if !tests {
		return nil
	}
	gates := map[*ssa.BasicBlock]string{}
	for _, b := range fn.DomPreorder() {
		d := b.Idom()
		if d == nil {
			continue
		}
		if why, ok := gates[d]; ok {
			gates[b] = why
			continue
		}
		iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok || len(b.Preds) != 1 || d.Succs[0] == d.Succs[1] {
			continue
		}
		if why, setSucc, ok := envTest(iff.Cond); ok && d.Succs[setSucc] == b {
			gates[b] = why
		}
	}
	return gates
}

// envTest reads cond as a test of an environment variable or a debug
// switch: the note's reason and the successor (0 for then, 1 for else)
// taken when it is set.
func envTest(cond ssa.Value) (why string, setSucc int, ok bool) {
	if name, on, ok := debugSwitch(cond); ok {
		return "only when debug switch " + name + " is on", on, true
	}
	name, setSucc, ok := envVarTest(cond)
	if !ok {
		return "", 0, false
	}
	return "only when the environment sets " + name, setSucc, true
}

// debugSwitch reads cond as a test of a bool package variable or field
// whose name says it is a debug switch: its name, and the successor taken
// when it is on (cond itself, or its negation).
func debugSwitch(cond ssa.Value) (name string, onSucc int, ok bool) {
	if not, isNot := cond.(*ssa.UnOp); isNot && not.Op == token.NOT {
		name, onSucc, ok = debugSwitch(not.X)
		return name, 1 - onSucc, ok
	}
	ld, isLoad := cond.(*ssa.UnOp)
	if !isLoad || ld.Op != token.MUL {
		if f, isField := cond.(*ssa.Field); isField {
			if v := structField(f.X.Type(), f.Field); v != nil && debugName(v.Name()) {
				return v.Name(), 0, true
			}
		}
		return "", 0, false
	}
	switch x := ld.X.(type) {
	case *ssa.Global:
		if debugName(x.Name()) {
			return x.Name(), 0, true
		}
	case *ssa.FieldAddr:
		if v := structField(x.X.Type(), x.Field); v != nil && debugName(v.Name()) {
			return v.Name(), 0, true
		}
	}
	return "", 0, false
}

// debugName reports whether a bool variable's name says it is a debug
// switch.
func debugName(name string) bool {
	return strings.Contains(strings.ToLower(name), "debug")
}

// envVarTest reads cond as a test of an environment variable: its name
// and the successor (0 for then, 1 for else) taken when it is set.
func envVarTest(cond ssa.Value) (name string, setSucc int, ok bool) {
	switch c := cond.(type) {
	case *ssa.BinOp:
		if c.Op != token.NEQ && c.Op != token.EQL {
			return "", 0, false
		}
		x, y := c.X, c.Y
		if isEmptyString(x) {
			x, y = y, x
		}
		if !isEmptyString(y) {
			return "", 0, false
		}
		if name, ok = envCall(x, "Getenv"); !ok {
			return "", 0, false
		}
		if c.Op == token.EQL {
			return name, 1, true
		}
		return name, 0, true
	case *ssa.Extract:
		if c.Index != 1 {
			return "", 0, false
		}
		if name, ok = envCall(c.Tuple, "LookupEnv"); ok {
			return name, 0, true
		}
	}
	return "", 0, false
}

// envCall returns the variable name of a call of os.<fn>: the constant
// argument, or a stand-in when it is computed.
func envCall(v ssa.Value, fn string) (string, bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return "", false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "os" || callee.Name() != fn || len(call.Call.Args) != 1 {
		return "", false
	}
	if k, ok := call.Call.Args[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
		return constant.StringVal(k.Value), true
	}
	return "an environment variable", true
}

func isEmptyString(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String && constant.StringVal(k.Value) == ""
}
