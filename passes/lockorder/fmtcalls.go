package lockorder

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// Formatting calls call methods too: fmt.Sprintf("%v", c), fmt.Print(c),
// fmt.Errorf("... %s", c) and log.Printf call c.String() (or c.Error()) for
// a value whose type has one. When that method locks a lock the caller
// holds, formatting deadlocks like a direct call.

// formatFuncs lists the formatting functions, with the index of their
// format argument (-1 for the Print family, which formats every argument
// with %v).
var formatFuncs = map[string]int{
	"fmt.Print": -1, "fmt.Println": -1, "fmt.Sprint": -1, "fmt.Sprintln": -1, "fmt.Fprint": -1, "fmt.Fprintln": -1,
	"fmt.Append": -1, "fmt.Appendln": -1,
	"fmt.Printf": 0, "fmt.Sprintf": 0, "fmt.Errorf": 0, "fmt.Fprintf": 1, "fmt.Appendf": 1,
	"log.Print": -1, "log.Println": -1, "log.Fatal": -1, "log.Fatalln": -1, "log.Panic": -1, "log.Panicln": -1,
	"log.Printf": 0, "log.Fatalf": 0, "log.Panicf": 0,
	"(*log.Logger).Print": -1, "(*log.Logger).Println": -1, "(*log.Logger).Printf": 0,
	"(*log.Logger).Fatal": -1, "(*log.Logger).Fatalf": 0, "(*log.Logger).Panic": -1, "(*log.Logger).Panicf": 0,
}

// printWrapper reports whether fn is a print or printf wrapper, as the
// printf analyzer infers them across packages (a logger's Infof that
// hands its format and arguments on to fmt.Sprintf), and the index of its
// format parameter (-1 for a Print-like wrapper).
func (c *checker) printWrapper(fn *ssa.Function) (int, bool) {
	obj := summary.FuncObject(fn)
	if obj == nil || c.printf == nil {
		return 0, false
	}
	switch c.printf.Kind(obj) {
	case printf.KindPrint:
		return -1, true
	case printf.KindPrintf, printf.KindErrorf:
		sig := obj.Signature()
		if !sig.Variadic() || sig.Params().Len() < 2 {
			return 0, false
		}
		return sig.Params().Len() - 2, true
	}
	return 0, false
}

// A formatted is a value a formatting call turns into text with a method.
type formatted struct {
	method *ssa.Function // the String or Error method
	recv   ssa.Value     // the value, as the method's receiver
}

// formattedMethods returns the String and Error methods a formatting call
// runs, with their receivers.
func (c *checker) formattedMethods(call *ssa.CallCommon) []formatted {
	callee := call.StaticCallee()
	if callee == nil {
		return nil
	}
	fmtIdx, ok := formatFuncs[callee.String()]
	if !ok {
		fmtIdx, ok = c.printWrapper(callee)
	}
	if !ok || len(call.Args) == 0 {
		return nil
	}
	if callee.Signature.Recv() != nil && fmtIdx >= 0 {
		fmtIdx++ // the receiver comes first
	}
	args := summary.VariadicArgs(call.Args[len(call.Args)-1])
	calls := stringerVerbs(call, fmtIdx, len(args))
	var out []formatted
	for i, arg := range args {
		mi, ok := arg.(*ssa.MakeInterface)
		if !ok || i >= len(calls) || !calls[i] {
			continue
		}
		if _, ptr := mi.X.Type().Underlying().(*types.Pointer); !ptr {
			continue // a copy of the value: its locks are other instances
		}
		for _, name := range []string{"Error", "String"} { // fmt prefers Error
			if m := c.methodOf(mi.X.Type(), name); m != nil {
				out = append(out, formatted{method: m, recv: mi.X})
				break
			}
		}
	}
	return out
}

// methodOf returns the method name() string of t's method set, or nil.
func (c *checker) methodOf(t types.Type, name string) *ssa.Function {
	sel := summary.ExportedMethod(c.res.Pkg.Prog.MethodSets.MethodSet(t), name)
	if sel == nil {
		return nil
	}
	sig, ok := sel.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
		return nil
	}
	return c.res.Pkg.Prog.LookupMethod(t, nil, name)
}

// stringerVerbs returns, for each of n formatted arguments, whether its
// verb calls String or Error: %v, %s, %q, %x and %X do; %d, %t, %p and the
// like do not. Without a constant format, every argument is assumed to.
func stringerVerbs(call *ssa.CallCommon, fmtIdx, n int) []bool {
	out := make([]bool, n)
	if fmtIdx < 0 {
		for i := range out {
			out[i] = true
		}
		return out
	}
	k, ok := call.Args[fmtIdx].(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		for i := range out {
			out[i] = true
		}
		return out
	}
	format := constant.StringVal(k.Value)
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		// Flags, width, precision; an explicit index makes the mapping
		// unknown: assume every argument.
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			if format[i] == '[' {
				for j := range out {
					out[j] = true
				}
				return out
			}
			if format[i] == '*' {
				arg++
			}
			i++
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		if arg < n {
			out[arg] = strings.IndexByte("vsqxXw", format[i]) >= 0
		}
		arg++
	}
	return out
}

// formatting checks the locks a formatting call takes through the String
// and Error methods of its arguments against the locks held, and reports
// whether it reported a finding.
func (c *checker) formatting(f *summary.Func, call *ssa.CallCommon, pos token.Pos, held []lockstate.Held) bool {
	callee := call.StaticCallee()
	for _, m := range c.formattedMethods(call) {
		synth := &ssa.CallCommon{Value: m.method, Args: []ssa.Value{m.recv}}
		_, takes := c.res.CallEffects(f.Flow, synth, summary.Takes)
		via := strings.TrimPrefix(summary.SSAFuncName(m.method, nil), c.pass.Pkg.Name()+".") + " (" + summary.SSAFuncName(callee, c.pass.Pkg) + " formats " + summary.ValueName(m.recv) + ")"
		for _, t := range takes {
			c.root = m.recv
			if c.check(pos, via, t.Lock, t.Mode, lockstate.WithoutClasses(held, t.Outside)) {
				return true
			}
		}
	}
	return false
}
