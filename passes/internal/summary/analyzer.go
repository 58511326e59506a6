package summary

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/memlimit"
	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/guard"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// Analyzer computes function summaries and lock state for lockaudit's
// analyzers. It exports a FuncFact for each exported function or method
// whose summary is not empty.
var Analyzer = &analysis.Analyzer{
	Name:       "lockfacts",
	Doc:        "compute lock-state summaries of functions for lockaudit's analyzers",
	URL:        "https://pkg.go.dev/github.com/lockaudit/lockaudit/passes/internal/summary",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	FactTypes:  []analysis.Fact{new(FuncFact)},
	ResultType: reflect.TypeOf((*Result)(nil)),
	Run:        runReportingErrors,
}

// runReportingErrors runs lockfacts, turning its failure (a recovered
// panic) into a result that carries the error: the go vet driver reports
// only "failed prerequisites" for the analyzers that require a failed
// one, and lockfacts is never a root, so its own error would be lost.
// The analyzers that use the result report it (Of).
func runReportingErrors(pass *analysis.Pass) (any, error) {
	res, err := guard.Run(run)(pass)
	if err != nil {
		return &Result{Err: fmt.Errorf("lockfacts: %w", err)}, nil
	}
	return res, nil
}

// Of returns the lockfacts result of pass, or the error lockfacts failed
// with, for the caller's exclusive use until it calls release.
//
// A Result answers queries by filling caches (origins, escapes, fences,
// ...), and the drivers run the analyzers that require lockfacts on one
// package concurrently (unitchecker and the checker both do). Rather than
// lock each cache, each analyzer takes the whole Result in turn: the
// queries stay free of locks and of lock-order questions, and one
// package's analyzers still overlap other packages' work. Release must be
// called exactly once (defer it); on error it is a no-op.
func Of(pass *analysis.Pass) (res *Result, release func(), err error) {
	res = pass.ResultOf[Analyzer].(*Result)
	if res.Err != nil {
		return nil, func() {}, res.Err
	}
	res.inUse.Lock()
	return res, res.inUse.Unlock, nil
}

// Result is what lockfacts computed for one package.
type Result struct {
	// Err is set when lockfacts failed on the package: nothing else is.
	Err   error
	Pkg   *ssa.Package
	Funcs []*Func // in source order, closures after their parents
	// Catalog is the blocking catalogue in force.
	Catalog *catalog.Catalog

	// inUse hands the Result to one analyzer at a time (see Of).
	inUse sync.Mutex

	a        *analyzer
	byFn     map[*ssa.Function]*Func
	external map[*types.Func]*Summary
	conds    map[string]string
}

// Func returns what is known of fn, a function of the package (or an
// instantiation of one: its generic function's).
func (r *Result) Func(fn *ssa.Function) *Func {
	if f := r.byFn[fn]; f != nil || fn == nil {
		return f
	}
	// Only an instantiation: a wrapper (a bound method's $bound) takes
	// other parameters than the method it wraps.
	if o := fn.Origin(); o != nil {
		return r.byFn[o]
	}
	return nil
}

// SummaryOf returns the summary of a callee, in this package or imported
// as a fact, or nil when none is known (an empty summary). An
// instantiation of a generic function of the package has its generic
// function's summary.
func (r *Result) SummaryOf(fn *ssa.Function) *Summary {
	if f := r.Func(fn); f != nil {
		return f.Summary
	}
	if obj := FuncObject(fn); obj != nil {
		return r.external[obj]
	}
	return nil
}

// CondLock returns the class of the lock tied to the sync.Cond class cond,
// or "" when it is not known.
func (r *Result) CondLock(cond string) string { return r.conds[cond] }

type analyzer struct {
	// The caches filled on demand (origins, implementations, imported
	// summaries, ...) need no lock: one analyzer at a time queries the
	// Result (Of).
	res      *Result
	pass     *analysis.Pass
	pkg      *ssa.Package
	cat      *catalog.Catalog
	funcs    map[*ssa.Function]*Func
	flows    map[*ssa.Function]*lockstate.Result
	external map[*types.Func]*Summary
	conds    map[string]string
	// condLockers gives the lock each Cond field's L stands for.
	condLockers       lockstate.CondLockers
	impls             map[types.Type][]types.Type // implementing types, by interface
	concrete          []*types.Named              // see visibleTypes
	visible           []*types.Package
	api               map[apiKey]bool
	apiNames          []string // the package scope's names, for inAPI
	typeNames         []string
	quiet             bool            // see quietPackage
	onlyTried         map[string]bool // lock classes only ever taken with TryLock (trylocks.go)
	triedElseTornDown map[string]bool // lock classes taken with TryLock but in teardown (trylocks.go)
	logger            bool            // a logger of the project's own: quiet for its importers (loggers.go)
	// executors holds the tasks each function hands to executors
	// (executors.go), computed on first use.
	executors   map[*ssa.Function]map[ssa.Instruction]executorTask
	buffered    map[string]bool
	queues      map[string]bool               // channel classes made only with room for any backlog
	configCap   map[string]bool               // channel classes made with a capacity read from a field
	deletes     map[*ssa.Function][]*ssa.Call // the delete calls of each function (see droppedAfter)
	selectCases map[*ssa.Select]ssa.Value     // bufferedCase, decided once per select
	fields      *fieldValues
	srcFuncs    []*ssa.Function
	index       *pkgIndex            // built on first use: read it through indexed
	origins     map[ssa.Value]Origin // memoised FuncOrigin results
	guards      map[*ssa.Function]*guards
	guarding    map[string]bool // lock classes that guard state, see GuardsState
	// lockWriters holds, by lock class, the functions that hold a lock of
	// the class for writing somewhere (see closefence.go); fences
	// memoises TeardownOnly's answers.
	lockWriters map[string]map[*ssa.Function]bool
	fences      map[string]bool
	// lockHolders holds, by lock class, the functions that hold a lock
	// of the class in either mode (see lifecycle.go); lifecycles caches
	// LifecycleOnly.
	lockHolders map[string]map[*ssa.Function]bool
	lifecycles  map[string]bool
	// workerOnly caches WorkerOnly (see workeronly.go).
	workerOnly map[string]bool
	// entryLocks and nested memoise callersHold and nestedUnder (see
	// nested.go).
	entryLocks  map[*ssa.Function][]lockstate.Held
	nested      map[nestKey]bool
	closedFirst map[nestKey]bool // closedBeforeWrites's answers, by lock and channel class
	// backPtrs memoises backPtrOf (see backpointers.go).
	backPtrs map[*types.Var]backPtr
	// handleLoads holds, by lock class, the loads of fields that the
	// class's critical sections only run blocking operations on; settled
	// and structStores memoise whether such a field never changes once
	// shared, operated whether the package runs blocking operations on
	// it (see handles.go).
	handleLoads  map[string][]*ssa.UnOp
	settled      map[*types.Var]bool
	operated     map[*types.Var]bool
	structStores map[types.Type][]*ssa.Store
	// params and unsharedParams flag, by escape mode and parameter, the
	// pointer parameters that do not escape and those unshared at entry
	// (see unshared.go).
	params         [nModes]paramFacts
	unsharedParams [nModes]map[*ssa.Function][]bool
	// releasedParams flags the pointer parameters released at entry;
	// lastRefCache, workerTakes and keptTypes memoise lastRefs,
	// workersTake and kept (see released.go).
	releasedParams map[*ssa.Function][]bool
	lastRefCache   map[*ssa.Function][]lastRef
	workerTakes    map[workersKey]bool
	keptTypes      map[*types.Named]bool
	// freshResults flags the functions whose pointer result is always an
	// object they allocate (a constructor).
	freshResults map[*ssa.Function]bool
	// dead holds the methods nothing can call (see deadmethods.go), built
	// on first use.
	deadOnce sync.Once
	dead     map[*ssa.Function]bool
	// at is the position being analysed, for the report of a panic.
	at *token.Pos

	// joinIdx indexes the package's channel operations and go
	// statements (joins.go), built on first use; quick caches which
	// workers do only short steps, and joinTakes holds the joins found,
	// with the lock classes their workers take.
	joinIdx     *joinIndex
	chanKeys    map[ssa.Value][]chanKey                      // chanKeysOf's answers
	envGates    map[*ssa.Function]map[*ssa.BasicBlock]string // envGatesOf's answers
	quick       map[*ssa.Function]bool
	groupFields map[*types.Var]bool // fieldGroupConfined's answers
	joinTakes   map[ssa.Instruction][]string
	starters    map[*ssa.Function][]int    // startedParams' answers (starters.go)
	stored      map[string]string          // storedLock's answers
	sealed      map[*types.TypeName]bool   // sealedStruct's answers
	sealedFuncs map[*types.TypeName]Origin // sealedFuncOrigin's answers
	writers     *writerIndex               // which functions write a field (freshfields.go)
	exits       *deferredExits             // what deferred closures see at the returns (deferredexits.go)
	zeros       *resultZeros               // the fields of objects calls return fresh (resultzeros.go)
	condSrc     map[string]condSource      // the lock value each Cond class is made on (conds.go)
	lockStores  map[string][]lockStore     // lock pointers stored, by field class
	private     map[privateKey]bool        // privateCtor's answers
	switches    map[*types.Var]bool        // testSwitch's answers
	unset       map[*types.Var]bool        // neverSet's answers
	globals     *globalUse                 // the package variables' loads, see globalUses
	// dying flags, by function and block index, the blocks from which
	// every path ends in a panic or a call that never returns (see
	// noreturn.go); nil for a function with none.
	dying map[*ssa.Function][]bool
	// sccs are the package's functions in strongly connected components,
	// callees first.
	sccs [][]*ssa.Function
	// ready holds, by function, the receives from a context's Done
	// channel that cannot wait, and fieldInfos what the package stores
	// into its fields (see readychans.go and ctxpairs.go), both built on
	// first use.
	ready      map[*ssa.Function]map[*ssa.UnOp]bool
	fieldInfos map[*types.Var]*fieldInfo
	// optionFlags memoises optionFlagOf (see optionflags.go),
	// optionSources optionSourcesClosed, by configuration and option
	// type, and hooks internalHooks (see optionsources.go).
	optionFlags   map[*types.Var]*optionFlag
	optionSources map[string]bool
	hooks         map[*ssa.Function]bool
}

func run(pass *analysis.Pass, at *token.Pos) (any, error) {
	ssainfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	// The package's SSA is built: in a vet-tool process (one package per
	// process) bound the heap the rest of the analysis grows.
	memlimit.AfterSSA()
	a := &analyzer{
		pass:        pass,
		at:          at,
		pkg:         ssainfo.Pkg,
		cat:         catalog.Current(),
		funcs:       make(map[*ssa.Function]*Func, len(ssainfo.SrcFuncs)),
		flows:       make(map[*ssa.Function]*lockstate.Result, len(ssainfo.SrcFuncs)),
		external:    map[*types.Func]*Summary{},
		impls:       map[types.Type][]types.Type{},
		api:         map[apiKey]bool{},
		quiet:       quietPackage(pass.Pkg.Path()),
		logger:      !quietPackage(pass.Pkg.Path()) && LoggerPackage(pass.Pkg),
		srcFuncs:    ssainfo.SrcFuncs,
		origins:     map[ssa.Value]Origin{},
		guarding:    map[string]bool{},
		lockWriters: map[string]map[*ssa.Function]bool{},
		lockHolders: map[string]map[*ssa.Function]bool{},
		handleLoads: map[string][]*ssa.UnOp{},
		guards:      map[*ssa.Function]*guards{},
	}
	for name, m := range a.pkg.Members {
		if _, ok := m.(*ssa.Type); ok {
			a.typeNames = append(a.typeNames, name)
		}
	}
	sort.Strings(a.typeNames)

	res := &Result{a: a, Pkg: a.pkg, Catalog: a.cat, byFn: a.funcs, external: a.external}
	a.res = res
	a.writers = newWriterIndex(a.pkg, ssainfo.SrcFuncs, a.indexed)
	a.exits = newDeferredExits()
	a.zeros = newResultZeros(a.pkg, a.guardsOf, a.summary, a.writers, a.exits)
	for _, fn := range ssainfo.SrcFuncs {
		f := &Func{Fn: fn, Summary: &Summary{}}
		a.funcs[fn] = f
		res.Funcs = append(res.Funcs, f)
	}

	// 1. Lock state, callees before callers, so that lock wrappers are
	// summarised before the functions that call them.
	edges := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range ssainfo.SrcFuncs {
		edges[fn] = callees(fn, a.resolve)
	}
	sccs := sccOrder(ssainfo.SrcFuncs, edges)
	a.sccs = sccs
	a.condLockers = lockstate.FindCondLockers(ssainfo.SrcFuncs)
	for _, scc := range sccs {
		for _, fn := range scc {
			*at = fn.Pos()
			flow := lockstate.Analyze(fn, lockstate.Config{Effects: a.effects, Conds: a.condLockers, Visit: a.visitor(fn)})
			a.flows[fn] = flow
			a.funcs[fn].Flow = flow
			a.funcs[fn].Summary.Effects = a.markForever(a.funcs[fn], flow.Exit)
		}
	}
	a.conds = a.condLocks(ssainfo.SrcFuncs, a.flows)
	a.buffered, a.queues = a.bufferedChans(ssainfo.SrcFuncs, a.flows)
	a.fields = collectFieldValues(ssainfo.SrcFuncs, a.flows)
	res.conds = a.conds

	// 2. Blocking, callbacks and lock classes, propagated to a fixpoint,
	// leaving out what only runs on the way to a crash.
	a.computeNoReturn(sccs)
	a.propagate(ssainfo.SrcFuncs)
	*at = token.NoPos

	// Objects no other goroutine can reach yet.
	a.computeUnshared(ssainfo.SrcFuncs)

	// 3. Closures invoked in place run under their caller's locks.
	for _, fn := range ssainfo.SrcFuncs {
		*at = fn.Pos()
		a.inherit(fn)
	}

	// Which locks guard state, now that objects not yet shared are known.
	a.settleHandles()

	// 4. Export the summaries that other packages can call: those of
	// exported functions and of exported methods, of any type (an
	// unexported type's methods are reachable through interfaces and
	// embedding). Other packages cannot name the rest, and unitchecker
	// re-exports every method fact of every dependency, so facts of
	// unexported methods would only cost memory in each importer.
	for _, fn := range ssainfo.SrcFuncs {
		if fn.Parent() != nil {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || obj == nil || !obj.Exported() {
			continue
		}
		a.sealForever(fn, a.funcs[fn].Summary)
		s := *a.funcs[fn].Summary
		s.Fresh = a.privateCtor(fn, strict, 0)
		s.Starts = a.startedParams(fn)
		s.Zeros = a.zeros.exported(fn)
		if a.logger {
			s.quieten()
		}
		if !s.empty() {
			pass.ExportObjectFact(obj, &FuncFact{Summary: s})
		}
	}
	return res, nil
}

// resolve returns the package's source function that fn is or wraps, or nil.
func (a *analyzer) resolve(fn *ssa.Function) *ssa.Function {
	fn = a.declared(fn)
	if _, ok := a.funcs[fn]; ok {
		return fn
	}
	return nil
}

// declared maps a wrapper or an instantiation to the declared function.
// A dynamic call's nil callee stays nil.
func (a *analyzer) declared(fn *ssa.Function) *ssa.Function {
	if fn == nil {
		return nil
	}
	if _, ok := a.funcs[fn]; ok {
		return fn
	}
	if o := fn.Origin(); o != nil {
		if _, ok := a.funcs[o]; ok {
			return o
		}
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj != nil && obj.Pkg() == a.pkg.Pkg {
		// A wrapper of a generic method (l.pop's bound wrapper on a
		// *processorListener[O]) names the method as instantiated: the
		// package's function is its origin's.
		if g := a.pkg.Prog.FuncValue(obj.Origin()); g != nil {
			return g
		}
	}
	return fn
}

// summary returns the summary of any callee, importing facts for functions
// of other packages.
func (a *analyzer) summary(fn *ssa.Function) *Summary {
	if f := a.funcs[a.declared(fn)]; f != nil {
		return f.Summary
	}
	obj := FuncObject(fn)
	if obj == nil {
		return nil
	}
	if s, ok := a.external[obj]; ok {
		return s
	}
	s := a.importSummary(obj)
	a.external[obj] = s
	return s
}

// importSummary returns the summary another package exported for obj, or
// nil.
func (a *analyzer) importSummary(obj *types.Func) *Summary {
	var fact FuncFact
	if !a.pass.ImportObjectFact(obj, &fact) {
		return nil
	}
	s, err := fact.decoded()
	if err != nil {
		panic(fmt.Sprintf("fact of %s: %v", obj.FullName(), err))
	}
	return s
}

// effects is the lock-effect lookup used by the dataflow.
func (a *analyzer) effects(fn *ssa.Function) []lockstate.Effect {
	if s := a.summary(fn); s != nil {
		return s.Effects
	}
	return nil
}
