package heldcall

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/analyzerdoc"
	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/guard"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
	"github.com/lockaudit/lockaudit/passes/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports calls and operations that can block, or that run code the
// critical section does not control, executed while a lock is held.
var Analyzer = &analysis.Analyzer{
	Name:     "heldcall",
	Doc:      analyzerdoc.FromDocGo(doc, "heldcall"),
	URL:      "https://pkg.go.dev/github.com/lockaudit/lockaudit/passes/heldcall",
	Requires: []*analysis.Analyzer{summary.Analyzer},
	Run:      guard.Run(run),
}

// reportTests is the -tests flag: report findings in _test.go files.
var reportTests bool

func init() {
	Analyzer.Flags.Var(catalog.Flag, "block",
		"extra blocking functions, comma-separated name=category pairs, such as 'example.com/db.(*Client).Query=db' (categories: "+strings.Join(catalog.Kinds, ", ")+")")
	Analyzer.Flags.Var(confidence.Flag, "severity", confidence.FlagUsage)
	Analyzer.Flags.BoolVar(&reportTests, "tests", false,
		"report findings in _test.go files (a test usually holds a lock because the helper it calls requires it)")
}

func run(pass *analysis.Pass, at *token.Pos) (any, error) {
	res, release, err := summary.Of(pass)
	defer release()
	if err != nil {
		return nil, err
	}
	c := &checker{pass: pass, res: res, rep: suppress.New(pass, "heldcall"), calls: srcname.New(pass)}
	c.rep.SkipTests = !reportTests
	for _, f := range res.Funcs {
		if f.Flow == nil || res.Unreachable(f.Fn) {
			continue // a method nothing can call holds nothing
		}
		*at = f.Fn.Pos()
		for _, ev := range f.Flow.Events {
			if res.TestOnly(f, ev.Instr) {
				continue // what a test switch turns on
			}
			if res.Dying(f, ev.Instr) {
				continue // on the way to a panic or an exit
			}
			// A lock of an object no other goroutine can reach yet is
			// uncontended: holding it costs nobody anything.
			held := res.Shared(f, ev.State.MustHeld(), ev.Instr)
			if len(held) == 0 {
				continue
			}
			if fd := c.classify(f, ev.Instr, held); fd != nil {
				if fd = c.beyondWorkers(f, ev.Instr, held, fd); fd != nil {
					c.report(f, ev.Instr, fd)
				}
			}
		}
	}
	return nil, nil
}

type checker struct {
	pass  *analysis.Pass
	res   *summary.Result
	rep   *suppress.Reporter
	calls *srcname.Calls
	recvs map[string][]chanRecv // receives by channel class, see indexChannels
	sigs  map[string][]chanRecv // sends and closes by channel class
	// goBodies holds the functions the package starts as goroutines.
	goBodies map[*ssa.Function]bool
	// valueTargets caches funcValueTargets.
	valueTargets map[*ssa.Function][]*ssa.Function
}

// lockName names a held lock as written. The engine names locks from
// SSA; a lock reached through a local variable holding a call result or a
// map lookup (sh := s.shardFor(k); sh.mu.Lock()) has no name there, so
// the receiver of the Lock call is taken from the source, and a lock taken
// through a wrapper is named after the wrapper's argument.
func (c *checker) lockName(h lockstate.Held) string {
	if h.Root != lockstate.RootValue && h.Root != lockstate.RootLocal {
		return h.Name
	}
	if name, ok := c.calls.LockReceiver(h.Pos); ok {
		return name
	}
	ce := c.calls.At(h.Pos)
	if ce == nil || h.Arg == 0 {
		return h.Name
	}
	// A lock wrapper: name the lock after the argument it hangs off.
	args := ce.Args
	if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
		if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
			args = append([]ast.Expr{sel.X}, ce.Args...)
		}
	}
	if h.Arg-1 < len(args) {
		return types.ExprString(args[h.Arg-1]) + h.ArgPath
	}
	return h.Name
}

// end returns the end of the call expression whose Lparen is at pos, or
// NoPos when the finding is not a call.
func (c *checker) end(pos token.Pos) token.Pos {
	if ce := c.calls.At(pos); ce != nil {
		return ce.End()
	}
	return token.NoPos
}

// source renders the function expression of the call at lparen as written,
// falling back to the SSA value's name.
func (c *checker) source(lparen token.Pos, v ssa.Value) string {
	if ce := c.calls.At(lparen); ce != nil {
		return types.ExprString(ce.Fun)
	}
	return summary.ValueName(v)
}

// A finding is one offending operation under a lock.
type finding struct {
	category string
	what     string           // "call of func value job"
	held     []lockstate.Held // the locks it is held across, in acquisition order
	level    confidence.Level
	why      string // for a note: why it is only plausible
	related  []analysis.RelatedInformation
	// op is the kind of the operation at the end of a call chain (see
	// summary.Reason.Kind), when it is not the category.
	op string
	// sides is set for a channel operation whose other sides the package
	// index knows (see recvCycle), and cycle when one of them takes a
	// held lock first.
	sides, cycle bool
}

func (c *checker) report(f *summary.Func, instr ssa.Instruction, fd *finding) {
	pos := instr.Pos()
	if !pos.IsValid() {
		return
	}
	if fd.category == "chan" {
		if sel, ok := c.calls.SingleSelect(pos); ok {
			pos = sel // where the user wrote the blocking statement
		}
	}
	for i := range fd.held {
		fd.held[i].Name = c.lockName(fd.held[i])
	}
	lock := fd.held[len(fd.held)-1] // the innermost lock
	if fd.level == confidence.Warning && !c.guardsState(fd.held) {
		fd.level, fd.why = confidence.Note, lock.Name+" guards nothing but what it is held across"
	}
	if fd.level == confidence.Warning && boundedWait(fd) && c.closeFence(fd.held) {
		fd.level, fd.why = confidence.Note, lock.Name+" is read-locked, and only teardown locks it for writing"
	}
	if fd.level == confidence.Warning && !fd.cycle && c.lifecycleOnly(fd.held) {
		fd.level, fd.why = confidence.Note, lock.Name+" is taken only to start and stop, and no goroutine of the package takes it"
	}
	if fd.level == confidence.Warning && !fd.cycle && everyClass(fd.held, c.res.OnlyTried) {
		fd.level, fd.why = confidence.Note, lock.Name+" is only ever taken with TryLock: nobody waits for it"
	}
	if fd.level == confidence.Warning && !fd.cycle && everyClass(fd.held, func(class string) bool { return c.res.TriedElseTornDown(class, f.Fn) }) {
		fd.level, fd.why = confidence.Note, lock.Name+" is taken with TryLock everywhere but in teardown: nobody waits for it"
	}
	if fd.level == confidence.Warning && !fd.cycle && c.workerOnly(fd.held) {
		fd.level, fd.why = confidence.Note, lock.Name+" is taken only by its object's one background goroutine"
	}
	if fd.level == confidence.Warning && !fd.cycle {
		if outer, ok := c.res.TakenUnderCallers(f, fd.held, instr); ok {
			fd.level, fd.why = confidence.Note, lock.Name+" is taken only under "+outer.Name+", which every caller holds here"
		}
	}
	if fd.level == confidence.Warning && !fd.cycle {
		if why, ok := c.res.EnvGate(f, instr); ok {
			fd.level, fd.why = confidence.Note, why
		}
	}
	if fd.level == confidence.Warning && !fd.cycle {
		// A test double's lock is contended only by the test driving
		// it; a deadlock through a channel (a cycle) still hangs it.
		if why := summary.TestSupport(summary.Outermost(f.Fn)); why != "" {
			fd.level, fd.why = confidence.Note, why
		}
	}
	d := analysis.Diagnostic{
		Pos:      pos,
		End:      c.end(pos),
		Category: fd.category,
		Message:  fmt.Sprintf("%s held across %s (%s)", lock.Name, fd.what, c.where(lock)),
	}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: lock.Pos, Message: lock.Name + " locked here"})
	for i := len(fd.held) - 2; i >= 0; i-- {
		h := fd.held[i]
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.Pos, Message: h.Name + " locked here"})
	}
	d.Related = append(d.Related, fd.related...)
	if fix, ok := c.moveUnlock(f, instr, fd); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.ReportLevel(d, fd.level, fd.why)
}

// guardsState reports whether one of the held locks guards state of the
// package besides the operation: a lock whose critical sections do nothing
// else exists to serialise that operation.
func (c *checker) guardsState(held []lockstate.Held) bool {
	for _, h := range held {
		if h.Class == "" || h.Inherited || c.res.GuardsState(h.Class) {
			return true
		}
	}
	return false
}

// boundedWait reports whether the operation of fd ends by itself: file
// I/O or a sleep, not a channel operation, a wait or a peer's reply, which
// can last for ever.
func boundedWait(fd *finding) bool {
	kind := fd.category
	if kind == "blocks" {
		kind = fd.op
	}
	return kind == catalog.File || kind == catalog.Sleep
}

// closeFence reports whether every held lock is the read side of a close
// fence (summary.Result.TeardownOnly): other readers share it, and only
// the closer, which waits for the work in flight anyway, can be kept
// waiting. That holds for an operation that ends by itself (boundedWait):
// a reader stuck on a channel would hang the closer.
func (c *checker) closeFence(held []lockstate.Held) bool {
	for _, h := range held {
		if h.Mode != lockstate.Read || h.Class == "" || !c.res.TeardownOnly(h.Class) {
			return false
		}
	}
	return true
}

// lifecycleOnly reports whether every held lock serialises only its
// object's life (summary.Result.LifecycleOnly): it delays nothing but a
// concurrent start or stop, and no worker of the package waits for it.
func (c *checker) lifecycleOnly(held []lockstate.Held) bool {
	return everyClass(held, c.res.LifecycleOnly)
}

// workerOnly reports whether every held lock is taken only by its
// object's one background goroutine (summary.Result.WorkerOnly): no other
// goroutine can be waiting for it.
func (c *checker) workerOnly(held []lockstate.Held) bool {
	return everyClass(held, c.res.WorkerOnly)
}

// everyClass reports whether held is not empty and ok holds for the class
// of each of its locks, none of them a caller's.
func everyClass(held []lockstate.Held, ok func(class string) bool) bool {
	for _, h := range held {
		if h.Class == "" || h.Inherited || !ok(h.Class) {
			return false
		}
	}
	return len(held) > 0
}

// where says where the lock was taken and whether a defer keeps it held.
func (c *checker) where(h lockstate.Held) string {
	s := "locked at " + srcname.At(c.pass.Fset, h.Pos)
	if h.Deferred {
		s += ", released by defer"
	}
	return s
}
