package lockorder

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/analyzerdoc"
	"github.com/lockaudit/lockaudit/passes/internal/guard"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
	"github.com/lockaudit/lockaudit/passes/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquisitions that deadlock.
var Analyzer = &analysis.Analyzer{
	Name:      "lockorder",
	Doc:       analyzerdoc.FromDocGo(doc, "lockorder"),
	URL:       "https://pkg.go.dev/github.com/lockaudit/lockaudit/passes/lockorder",
	Requires:  []*analysis.Analyzer{summary.Analyzer, printf.Analyzer},
	Run:       guard.Run(run),
	FactTypes: []analysis.Fact{new(orderFact)},
}

func init() {
	Analyzer.Flags.Var(confidence.Flag, "severity", confidence.FlagUsage)
}

func run(pass *analysis.Pass, at *token.Pos) (any, error) {
	res, release, err := summary.Of(pass)
	defer release()
	if err != nil {
		return nil, err
	}
	c := &checker{pass: pass, res: res, rep: suppress.New(pass, "lockorder"), calls: srcname.New(pass), readOnly: readOnlyLocks(pass.Pkg, res)}
	c.printf, _ = pass.ResultOf[printf.Analyzer].(*printf.Result)
	for _, f := range res.Funcs {
		if f.Flow == nil || res.Unreachable(f.Fn) {
			continue // a method nothing can call takes no locks
		}
		*at = f.Fn.Pos()
		c.fn = f
		c.goReleased = c.releasedByGoroutines(f)
		c.keys = c.keyLocks(f)
		c.leaks(f)
		back, entry := c.loopEdges(f)
		c.loopLeaks(f, back, entry)
		c.deferredInLoops(f, back, entry)
		c.doubleUnlocks(f)
		c.guardedUnlocks(f)
		c.onceCalls(f)
		c.lockFreeVisits(f)
		for _, ev := range f.Flow.Events {
			switch instr := ev.Instr.(type) {
			case *ssa.Call:
				if held := ev.State.MustHeld(); len(held) > 0 {
					c.acquisitions(f, instr, held)
					c.releaseEdges(f, instr, held)
				}
			case *ssa.Defer:
				if held := c.heldWhenDeferredRuns(f, instr, ev.State); len(held) > 0 {
					c.acquisitions(f, instr, held)
				}
			}
		}
	}
	*at = token.NoPos
	c.reportCycles()
	return nil, nil
}

type checker struct {
	printf *printf.Result // the package's print and printf wrappers
	calls  *srcname.Calls
	pass   *analysis.Pass
	res    *summary.Result
	rep    *suppress.Reporter
	edges  []edge
	// goReleased holds the keys of locks that a goroutine started by the
	// current function, or a closure it hands to other code, releases:
	// mu.Lock(); go func() { ...; mu.Unlock() }(); mu.Lock() waits for the
	// goroutine, it does not deadlock.
	goReleased map[string]bool
	fn         *summary.Func   // the function being checked
	at         ssa.Instruction // the acquisition being checked
	root       ssa.Value       // a value the lock being taken hangs off, if known
	// outside holds the classes of the held locks that the callee taking
	// the lock being checked releases around the acquisition.
	outside []string
	// readOnly holds the classes of locks that no writer can take, whose
	// recursive read locks cannot deadlock (readers.go).
	readOnly map[string]bool
	// keys holds the current function's per-key locks (keylocks.go),
	// returned memoises returnedElem.
	keys     map[string]keyLock
	returned map[returnKey]returned
	// call is the call being checked when a callee takes the lock.
	call *ssa.CallCommon
	// deferred is set while a deferred call is checked.
	deferred bool
	// chains memoises takenIn.
	chains map[chainKey][]site
	// branches indexes the current function's branch statements
	// (branchOf).
	branches *branchIndex
	// files holds the file set's files by name (posOf).
	files map[string]*token.File
	// orderClasses memoises orderClass, packages findPackage.
	orderClasses map[string]string
	packages     map[string]*types.Package
}

// releasedByGoroutines returns the keys of f's locks that goroutines f
// starts, or closures it hands to other code, release
// (summary.ReleasedElsewhere).
func (c *checker) releasedByGoroutines(f *summary.Func) map[string]bool {
	var out map[string]bool
	for _, e := range c.res.ReleasedElsewhere(f.Flow) {
		if out == nil {
			out = map[string]bool{}
		}
		out[e.Lock.Key] = true
	}
	return out
}

// acquisitions checks the locks a call (or a deferred call) takes against
// the locks held when it runs, reporting at the call (or the defer).
func (c *checker) acquisitions(f *summary.Func, instr ssa.CallInstruction, held []lockstate.Held) {
	common, pos := instr.Common(), instr.Pos()
	_, c.deferred = instr.(*ssa.Defer)
	c.at, c.call = instr, nil
	op := f.Flow.OpOf(common)
	if op.Kind == lockstate.Acquire {
		id := f.Flow.IDOf(op.Recv)
		id.Name = c.lockName(id, common.Pos())
		c.root = op.Recv
		c.check(pos, "", id, op.Mode, held)
		return
	}
	if op.Kind != lockstate.NoOp {
		return
	}
	if c.formatting(f, common, pos, held) || c.interfaceTakes(f, common, pos, held) || c.funcValueTakes(f, common, pos, held) {
		return
	}
	callee, takes := c.res.CallEffects(f.Flow, common, summary.Takes)
	if len(takes) == 0 {
		return
	}
	name := strings.TrimPrefix(summary.SSAFuncName(callee, nil), c.pass.Pkg.Name()+".")
	c.call = common
	for _, t := range takes {
		c.nameByArg(f, common, &t.Lock)
		c.outside = t.Outside
		reported := c.check(pos, name, t.Lock, t.Mode, lockstate.WithoutClasses(held, t.Outside))
		c.outside = nil
		if reported {
			return // one finding per call
		}
	}
	c.argsUnderCallee(f, common, pos, held)
}

// lockFreeVisits checks the calls f makes holding no lock of its own for
// the func values they hand to a callee that runs them under its locks
// (argsUnderCallee): the calls under f's locks are checked with them.
func (c *checker) lockFreeVisits(f *summary.Func) {
	for _, b := range f.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.StaticCallee() == nil {
				continue
			}
			if ev, ok := f.Flow.EventAt(call); ok && len(ev.State.MustHeld()) > 0 {
				continue
			}
			c.at, c.deferred, c.root = call, false, nil
			c.argsUnderCallee(f, call.Common(), call.Pos(), nil)
		}
	}
	c.call = nil
}

// argsUnderCallee checks what the func values a call hands to its callee
// take while the callee holds its own locks around calling them: a
// visitor that locks its collection and calls a func that locks it again
// deadlocks at once, and one that takes another lock orders it after the
// visitor's.
func (c *checker) argsUnderCallee(f *summary.Func, common *ssa.CallCommon, pos token.Pos, held []lockstate.Held) {
	aus := c.res.ArgsUnderCallee(f.Flow, common)
	if len(aus) == 0 {
		return
	}
	callee := summary.StaticCallee(common)
	name := strings.TrimPrefix(summary.SSAFuncName(callee, nil), c.pass.Pkg.Name()+".")
	c.call = common
	for _, au := range aus {
		under := append(slices.Clip(held), au.Held...)
		for _, t := range au.Takes {
			c.nameByArg(f, common, &t.Lock)
			if c.check(pos, name+" with its func argument", t.Lock, t.Mode, under) {
				return
			}
		}
	}
}

// nameByArg sets c.root to the argument of call that the callee's lock l,
// rebased onto the call, hangs off (nil when none), and names l from that
// argument as written.
func (c *checker) nameByArg(f *summary.Func, call *ssa.CallCommon, l *lockstate.ID) {
	c.root = nil
	for i, arg := range call.Args {
		if root := f.Flow.IDOf(arg); under(l.Key, root.Key) {
			c.root = arg
			l.Name = c.argLockName(call, i, root, *l)
		}
	}
}

// check reports taking id in mode while held is held, through the call of
// via when via is not empty, and records lock-order edges. It reports
// whether it reported a finding.
func (c *checker) check(pos token.Pos, via string, id lockstate.ID, mode lockstate.Mode, held []lockstate.Held) bool {
	held = slices.Clone(held)
	for i := range held {
		held[i].Name = c.lockName(held[i].ID, held[i].Pos)
		held[i].ID = c.withKeyClass(held[i].ID)
	}
	id = c.withKeyClass(id)
	for _, h := range held {
		if h.Key != id.Key || c.goReleased[h.Key] {
			continue
		}
		category, what := reentry(h.Mode, mode)
		if category == "rlock-reentry" && c.readOnly[h.Class] {
			return false // no writer can queue between the two read locks
		}
		how := what + c.through(via)
		msg := fmt.Sprintf("%s %s while held (%s)", h.Name, how, c.where(h))
		if category == "rlock-reentry" && c.inTest(pos) {
			// A test that reads under a read lock it already holds
			// hangs only if a writer queues in between, which the
			// package's writers do only if the test runs one.
			c.reportLevel(pos, category, msg, h, confidence.Note, "a writer queues between a test's two read locks only if the test runs one concurrently")
			return true
		}
		c.report(pos, category, msg, h)
		return true
	}
	if via != "" && c.readAgainByClass(pos, via, id, mode, held) {
		return true
	}
	if via == "" && c.sameClass(pos, id, mode, held) {
		return true
	}
	if id.Full == "" {
		return false
	}
	to := c.orderClass(id)
	gates := c.gatesAt(held)
	for _, h := range held {
		from := c.orderClass(h.ID)
		if from == "" || from == to || c.res.Unshared(c.fn, h.ID, c.at) {
			continue // an object no other goroutine can reach yet orders nothing
		}
		c.edges = append(c.edges, edge{from: h, to: id, fromClass: from, toClass: to, toMode: mode, pos: pos, via: via, deferred: c.deferred,
			related: c.related(h, id), flow: c.fn.Flow, call: c.call, gates: gates})
	}
	return false
}

// sameClass reports a lock taken while another instance of its class is
// held, when the two hang off two parameters of the function and the
// function never orders them: transfer(a, b) running beside transfer(b, a)
// deadlocks. Instances reached otherwise (a parent and its child, two
// shards) have an order of their own, or are shardlock's business.
func (c *checker) sameClass(pos token.Pos, id lockstate.ID, mode lockstate.Mode, held []lockstate.Held) bool {
	if id.Root != lockstate.RootParam || id.Class == "" || strings.Contains(id.Key, "[") {
		return false
	}
	for _, h := range held {
		if h.Key == id.Key || h.Class != id.Class || h.Root != lockstate.RootParam ||
			h.RootIndex == id.RootIndex || strings.Contains(h.Key, "[") {
			continue
		}
		if mode == lockstate.Read && h.Mode == lockstate.Read {
			continue // readers alone do not deadlock
		}
		if c.paramsCompared(h.RootIndex, id.RootIndex) {
			continue
		}
		c.report(pos, "same-class", fmt.Sprintf("%s locked while %s, a lock of the same class, is held (%s), in no fixed order: a call with the two swapped deadlocks",
			id.Name, h.Name, c.where(h)), h)
		return true
	}
	return false
}

// paramsCompared reports whether the current function orders its i'th and
// j'th parameters: a <, >, <= or >= between values taken from each (a.id <
// b.id, or their addresses).
func (c *checker) paramsCompared(i, j int) bool {
	for _, b := range c.fn.Fn.Blocks {
		for _, instr := range b.Instrs {
			bin, ok := instr.(*ssa.BinOp)
			if !ok {
				continue
			}
			switch bin.Op {
			case token.LSS, token.GTR, token.LEQ, token.GEQ:
			default:
				continue
			}
			x, y := c.fn.Flow.IDOf(bin.X), c.fn.Flow.IDOf(bin.Y)
			if x.Root != lockstate.RootParam || y.Root != lockstate.RootParam {
				continue
			}
			if (x.RootIndex == i && y.RootIndex == j) || (x.RootIndex == j && y.RootIndex == i) {
				return true
			}
		}
	}
	return false
}

// reentry classifies taking a lock again in mode while it is held in held.
func reentry(held, mode lockstate.Mode) (category, what string) {
	switch {
	case held == lockstate.Read && mode == lockstate.Write:
		return "rlock-upgrade", "locked for writing"
	case held == lockstate.Read && mode == lockstate.Read:
		return "rlock-reentry", "read-locked again"
	case mode == lockstate.Read:
		return "double-lock", "read-locked"
	}
	return "double-lock", "locked again"
}

func (c *checker) report(pos token.Pos, category, msg string, first lockstate.Held) {
	c.reportLevel(pos, category, msg, first, confidence.Warning, "")
}

func (c *checker) reportLevel(pos token.Pos, category, msg string, first lockstate.Held, l confidence.Level, why string) {
	d := analysis.Diagnostic{Pos: pos, Category: category, Message: msg}
	if first.Pos.IsValid() {
		d.Related = []analysis.RelatedInformation{{Pos: first.Pos, Message: first.Name + " locked here"}}
	}
	c.rep.ReportLevel(d, l, why)
}

// lockName names a lock as written at its acquisition (lockPos): a lock
// reached through a local holding a call result or a map element has no
// name in SSA.
func (c *checker) lockName(id lockstate.ID, lockPos token.Pos) string {
	if id.Root != lockstate.RootValue && id.Root != lockstate.RootLocal {
		return id.Name
	}
	if name, ok := c.calls.LockReceiver(lockPos); ok {
		return name
	}
	return id.Name
}

// withKeyClass gives a per-key lock with no class of its own the class of
// its container's elements.
func (c *checker) withKeyClass(id lockstate.ID) lockstate.ID {
	if id.Full != "" {
		return id
	}
	if kl, ok := c.keys[id.Key]; ok {
		id.Class, id.Full = kl.class, kl.class
	}
	return id
}

// under reports whether the lock key is root's or a lock below it.
func under(key, root string) bool {
	rest, ok := strings.CutPrefix(key, root)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

// argLockName names a callee's lock that hangs off the call's i'th
// argument: a local with no name in SSA (a range variable, a call result)
// is named as the call writes the argument.
func (c *checker) argLockName(call *ssa.CallCommon, i int, root, l lockstate.ID) string {
	if root.Root != lockstate.RootValue && root.Root != lockstate.RootLocal {
		return l.Name
	}
	ce := c.calls.At(call.Pos())
	if ce == nil {
		return l.Name
	}
	var arg ast.Expr
	if callee := call.StaticCallee(); callee != nil && callee.Signature.Recv() != nil {
		// A method call: the receiver is written before the selector.
		if i == 0 {
			if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
				arg = sel.X
			}
		} else if i-1 < len(ce.Args) {
			arg = ce.Args[i-1]
		}
	} else if i < len(ce.Args) {
		arg = ce.Args[i]
	}
	suffix, ok := strings.CutPrefix(l.Name, root.Name)
	if arg == nil || !ok {
		return l.Name
	}
	return types.ExprString(arg) + suffix
}

func (c *checker) where(h lockstate.Held) string {
	return "locked at " + srcname.At(c.pass.Fset, h.Pos)
}
