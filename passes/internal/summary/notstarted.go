package summary

import (
	"golang.org/x/tools/go/ssa"
)

// NotStartedWait reports whether call, made by instr, is cmd.Wait() on an
// *exec.Cmd whose Start has just failed: instr runs only where
// cmd.Start() on the same command returned a non-nil error, and Wait
// then returns "exec: not started" at once, with nothing to wait for
// (if err := cmd.Start(); err != nil { cmd.Wait(); return err }).
func NotStartedWait(call *ssa.CallCommon, instr ssa.Instruction) bool {
	if !isExecCmdMethod(call, "Wait") || instr.Block() == nil {
		return false
	}
	cmd := call.Args[0]
	for _, d := range dominators(instr.Block())[1:] {
		ifi, ok := lastInstr(d).(*ssa.If)
		if !ok {
			continue
		}
		x, eq, ok := nilTest(ifi.Cond)
		if !ok {
			continue
		}
		failed := d.Succs[0] // err != nil
		if eq {
			failed = d.Succs[1]
		}
		start, ok := x.(*ssa.Call)
		if !ok || !isExecCmdMethod(start.Common(), "Start") || start.Common().Args[0] != cmd {
			continue
		}
		if len(failed.Preds) == 1 && failed.Dominates(instr.Block()) {
			return true
		}
	}
	return false
}

// isExecCmdMethod reports whether call is a static call of the method
// name of *os/exec.Cmd.
func isExecCmdMethod(call *ssa.CallCommon, name string) bool {
	fn := StaticCallee(call)
	if fn == nil || len(call.Args) == 0 {
		return false
	}
	obj := FuncObject(fn)
	return obj != nil && obj.FullName() == "(*os/exec.Cmd)."+name
}
