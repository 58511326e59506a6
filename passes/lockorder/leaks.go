package lockorder

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
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
	// Within one sentence: a dot followed by a letter is part of a name
	// (r.client.mu), not the end of the sentence.
	lockContractDoc = regexp.MustCompile(strings.ReplaceAll(`(?i)\b(returns?|leaves?|keeps?|keeping)\b…\b(held|locked)\b|`+
		`\bcallers?\b…\b(unlock|release)|\block\b…\buntil\b|\buntil\b…\b(unlock|release)`, "…", `(?:[^.]|\.\w)*`))
)

// An exit is a return of a function, or, when the paths into its block
// hold different locks, the return taken along one edge into its block
// (a break that leaves the lock held, beside the loop's normal end that
// released it).
type exit struct {
	ret   *ssa.Return
	pred  int // the edge's index among the block's Preds; -1 for all of them
	state lockstate.State
}

// leakExits sorts the exits of a function for one lock.
type leakExits struct {
	held     []exit // exits with the lock held, and nothing to release it
	released []exit // exits after releasing it (an Unlock, or a defer)
	first    lockstate.Held
}

// exitStatus says what an exit does with a lock: 'h' it keeps it held,
// 'r' a defer releases it, 0 neither (it may be held on some paths).
func exitStatus(s lockstate.State, key string) (byte, lockstate.Held) {
	h, ok := s.Lookup(key)
	switch {
	case !ok || h.Inherited || h.Restored:
		return 0, h
	case h.Deferred:
		return 'r', h
	case h.Must:
		return 'h', h
	}
	return 0, h
}

// leaks reports the lock leaks of f.
func (c *checker) leaks(f *summary.Func) {
	var rets []*ssa.Return
	for _, b := range f.Fn.Blocks {
		if ret, ok := lastInstr(b).(*ssa.Return); ok && f.Flow.Reachable(b) {
			rets = append(rets, ret)
		}
	}
	// Each return's exits: the return, or one per edge into its block
	// when the edges hold different locks.
	all := make([][]exit, len(rets))
	var keys []string
	seen := map[string]bool{}
	for i, ret := range rets {
		ev, _ := f.Flow.EventAt(ret)
		all[i] = []exit{{ret: ret, pred: -1, state: ev.State}}
		if along := f.Flow.ReturnsAlong(ret); along != nil {
			all[i] = all[i][:0]
			for _, a := range along {
				all[i] = append(all[i], exit{ret: ret, pred: a.Pred, state: a.State})
			}
		}
		for _, ex := range all[i] {
			for _, h := range ex.state.Held {
				if st, _ := exitStatus(ex.state, h.Key); st != 0 && h.Key != "" && !seen[h.Key] {
					seen[h.Key] = true
					keys = append(keys, h.Key)
				}
			}
		}
	}
	if len(keys) == 0 || releasesInRangeFunc(f.Fn) {
		return
	}
	contract := c.leakContract(f.Fn)
	var unlocks map[string][]ssa.Instruction
	for _, key := range keys {
		// The exits that keep the lock the function took, those a defer
		// releases at, and the others.
		e := &leakExits{}
		var others []exit
		for i, ret := range rets {
			exits := all[i]
			if len(exits) > 1 && uniform(exits, key) {
				// All the edges agree: the return is one exit.
				ev, _ := f.Flow.EventAt(ret)
				exits = []exit{{ret: ret, pred: -1, state: ev.State}}
			}
			for _, ex := range exits {
				st, h := exitStatus(ex.state, key)
				switch st {
				case 'h':
					e.held = append(e.held, ex)
				case 'r':
					e.released = append(e.released, ex)
				default:
					others = append(others, ex)
					continue
				}
				if e.first.Key == "" {
					e.first = h
				}
			}
		}
		// A return that hands the caller the lock's own Unlock (return
		// g.Unlock, false), or a new object whose method releases it (an
		// iterator's Close), releases it through the caller.
		e.held = slices.DeleteFunc(e.held, func(ex exit) bool {
			if handsUnlock(f, ex, key) || c.handsToResult(f, ex, e.first.ID) {
				e.released = append(e.released, ex)
				return true
			}
			return false
		})
		if len(e.held) == 0 {
			continue
		}
		// The exits an Unlock of the lock can reach, where it is no
		// longer held.
		if unlocks == nil {
			unlocks = c.unlockSites(f)
		}
		for _, ex := range others {
			if h, ok := ex.state.Lookup(key); ok && !h.Deferred {
				continue // held on some paths
			}
			if slices.ContainsFunc(unlocks[key], func(u ssa.Instruction) bool { return precedesExit(u, ex) }) {
				e.released = append(e.released, ex)
			}
		}
		if v, ok := acquirerExits(f, e, contract); ok {
			if len(v) == 0 {
				continue // every return that keeps the lock reports success
			}
			e.held = v
		} else if contract {
			continue
		}
		if len(e.released) == 0 || c.explainedByResults(f, e) || c.res.Unshared(f, e.first.ID, e.held[0].ret) || c.deferredMayRelease(f, e.first.Class) || recordsHold(f, e) || c.handedToGoroutine(f, e) {
			continue // an object no other goroutine has seen yet cannot be locked again by one
		}
		name := c.lockName(e.first.ID, e.first.Pos)
		e.first.Name = name
		reported := map[token.Pos]bool{}
		for _, ex := range e.held {
			pos := ex.ret.Pos()
			if !pos.IsValid() {
				pos = closingBrace(f.Fn)
			}
			msg := fmt.Sprintf("return with %s held, but other paths of %s release it (%s): the next Lock of it waits forever",
				name, funcLabel(f.Fn), c.where(e.first))
			if ex.pred >= 0 {
				if br := c.branchOf(ex.ret.Block().Preds[ex.pred]); br != nil {
					msg = fmt.Sprintf("%s with %s held, to the return at %s, but other paths of %s release it (%s): the next Lock of it waits forever",
						br.Tok, name, srcname.At(c.pass.Fset, pos), funcLabel(f.Fn), c.where(e.first))
					pos = br.Pos()
				}
			}
			if reported[pos] {
				continue
			}
			reported[pos] = true
			c.report(pos, "leak", msg, e.first)
		}
	}
}

// handsUnlock reports whether the exit ex returns a method value of the
// Unlock (or RUnlock) of the lock key: the caller is handed the release.
func handsUnlock(f *summary.Func, ex exit, key string) bool {
	for i := range ex.ret.Results {
		if id, _, ok := f.Flow.UnlockFunc(ex.result(i)); ok && id.Key == key {
			return true
		}
	}
	return false
}

// uniform reports whether the exits along the edges into one return block
// all do the same with the lock key.
func uniform(exits []exit, key string) bool {
	first, _ := exitStatus(exits[0].state, key)
	for _, ex := range exits[1:] {
		if st, _ := exitStatus(ex.state, key); st != first {
			return false
		}
	}
	return true
}

// precedesExit reports whether instruction u can run before the exit ex:
// before its return, or, for an exit along an edge, in the edge's source
// block or before it, or in the return's block before the return.
func precedesExit(u ssa.Instruction, ex exit) bool {
	if ex.pred < 0 {
		return summary.Precedes(u, ex.ret)
	}
	if u.Block() == ex.ret.Block() {
		return summary.Precedes(u, ex.ret)
	}
	return summary.Precedes(u, lastInstr(ex.ret.Block().Preds[ex.pred]))
}

// funcLabel names a function as its source does: a closure is "the func
// literal in F".
func funcLabel(fn *ssa.Function) string {
	if fn.Parent() == nil {
		return fn.Name()
	}
	return "the func literal in " + summary.Outermost(fn).Name()
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
// holds the lock, as with a conditional lock function; or return the lock
// itself, or its Unlock, for the caller to release. Holding it on the
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
	for _, ex := range e.held {
		for i := range ex.ret.Results {
			if f.Flow.IsUnlocker(ex.result(i)) {
				return true // it hands the caller the Unlock
			}
		}
	}
	// Every return that keeps the lock hands it to the caller (lock
	// *sync.Mutex = &c.rlock): the caller unlocks what it is given.
	if e.first.Key == "" {
		return false
	}
	for _, ex := range e.held {
		handed := false
		for i := range ex.ret.Results {
			if f.Flow.IDOf(ex.result(i)).Key == e.first.Key {
				handed = true
			}
		}
		if !handed {
			return false
		}
	}
	return true
}

// acquirerName matches the names of functions that take a lock for their
// caller and report whether they did: acquire, begin, enter, reserve...
// (names with "lock" in them are contracts already, see leakContract).
// The verb is the whole name or ends at the next word: Ping and Entering
// are not acquirers.
var acquirerName = regexp.MustCompile(`^([aA]cquire|[bB]egin|[eE]nter|[gG]rab|[rR]eserve|[cC]laim|[cC]heck[oO]ut|[bB]orrow|[pP]in)([A-Z0-9_]|$)`)

// acquirerExits applies an acquirer's contract to a leak: a function with
// a lock contract (leakContract: "returns with mu read-locked on
// success") or named for taking something (acquirerName), whose returns
// that keep the lock report success with a nil error while none that
// release it does, hands the lock to its callers on success. Its leaks are the returns that keep
// the lock and report an error: the caller, told it failed, never unlocks
// (etcd's remoteClient.acquire returning ErrConnClosed read-locked). ok is
// false when the function is not such an acquirer; the exits are then
// judged as any function's.
func acquirerExits(f *summary.Func, e *leakExits, contract bool) (leaks []exit, ok bool) {
	if !contract && !acquirerName.MatchString(summary.Outermost(f.Fn).Name()) {
		return nil, false
	}
	results := f.Fn.Signature.Results()
	errType := types.Universe.Lookup("error").Type()
	for i := range results.Len() {
		if !types.Identical(results.At(i).Type(), errType) {
			continue
		}
		success := false
		for _, ex := range e.held {
			switch ex.resultKind(i) {
			case "nil":
				success = true
			case "non-nil":
				leaks = append(leaks, ex)
			}
		}
		for _, ex := range e.released {
			if ex.resultKind(i) == "nil" {
				return nil, false // it also reports success without the lock
			}
		}
		if !success {
			return nil, false
		}
		return leaks, true
	}
	return nil, false
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// commonResult returns what the i'th result of every exit is, when it is
// the same known kind for all: a constant's value, "nil", or "non-nil" for
// a value that cannot be nil (an error made here, a package-level error).
func commonResult(exits []exit, i int) (string, bool) {
	common := ""
	for _, ex := range exits {
		if i >= len(ex.ret.Results) {
			return "", false
		}
		v := ex.resultKind(i)
		if v == "" || common != "" && v != common {
			return "", false
		}
		common = v
	}
	return common, common != ""
}

// result returns the i'th result of the exit's return: along an edge, a
// phi of the return's block is the value the edge brings.
func (ex exit) result(i int) ssa.Value {
	v := ex.ret.Results[i]
	if phi, ok := v.(*ssa.Phi); ok && ex.pred >= 0 && phi.Block() == ex.ret.Block() && ex.pred < len(phi.Edges) {
		return phi.Edges[ex.pred]
	}
	return v
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
			callees := []*ssa.Function{}
			if callee, _ := lockstate.CalledFunc(f.Fn, d.Call.Value); callee != nil {
				callees = append(callees, callee)
			} else if !d.Call.IsInvoke() {
				// defer unlock(), where unlock is set to the release
				// and later to a no-op once the function released
				// the lock by hand.
				callees = c.res.FuncOrigin(f.Fn, d.Call.Value).Targets
			}
			for _, callee := range callees {
				if callee.Parent() == f.Fn && c.mayReleaseClass(callee, class, 0) {
					return true
				}
			}
		}
	}
	return false
}

// mayReleaseClass reports whether g, a closure of the function being
// checked, unlocks a lock of class on some path, itself or through a
// func value it calls that the function sets to such a closure (defer
// func() { unlock() }(), where unlock := func() { mu.Unlock() }).
func (c *checker) mayReleaseClass(g *ssa.Function, class string, depth int) bool {
	gf := c.res.Func(g)
	if gf == nil || gf.Flow == nil {
		return false
	}
	if c.releasesClass(gf, class) {
		return true
	}
	if depth >= 2 {
		return false
	}
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() || summary.StaticCallee(call.Common()) != nil {
				continue
			}
			for _, t := range c.res.FuncOrigin(g, call.Call.Value).Targets {
				if t.Parent() != nil && c.mayReleaseClass(t, class, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// releasesClass reports whether g unlocks a lock of class on some path,
// itself or through an unlock wrapper it calls.
func (c *checker) releasesClass(g *summary.Func, class string) bool {
	for _, op := range lockOps(g.Fn) {
		if op.Kind == lockstate.Release && g.Flow.IDOf(op.Recv).Class == class {
			return true
		}
	}
	for _, e := range g.Flow.Exit {
		if e.Release && e.Lock.Class == class {
			return true
		}
	}
	// An unlock wrapper called on some path only (if !done {
	// h.locks.Unlock(id) }): the exit does not show it.
	for _, b := range g.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			_, effects := c.res.CallEffects(g.Flow, call.Common(), func(s *summary.Summary) []lockstate.Effect { return s.Effects })
			for _, e := range effects {
				if e.Release && !e.Returned && e.Lock.Class == class {
					return true
				}
			}
		}
	}
	return false
}

// recordsHold reports whether every exit that keeps the lock first records
// that in the lock owner's state, setting a bool field of the object the
// lock belongs to (rs.closemuScanHold = true beside rs.closemu): the lock
// is handed over to a later call that checks the flag and releases it.
func recordsHold(f *summary.Func, e *leakExits) bool {
	i := strings.LastIndexByte(e.first.Key, '.')
	if i <= 0 {
		return false
	}
	owner := e.first.Key[:i]
	for _, ex := range e.held {
		b := ex.ret.Block()
		if ex.pred >= 0 {
			b = b.Preds[ex.pred]
		}
		if !setsFlagOf(f, b, owner) {
			return false
		}
	}
	return true
}

// setsFlagOf reports whether block b of f stores true into a bool field of
// the object whose key is owner.
func setsFlagOf(f *summary.Func, b *ssa.BasicBlock, owner string) bool {
	for _, instr := range b.Instrs {
		st, ok := instr.(*ssa.Store)
		if !ok {
			continue
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		k, isConst := st.Val.(*ssa.Const)
		if !ok || !isConst || k.Value == nil || k.Value.Kind() != constant.Bool || !constant.BoolVal(k.Value) {
			continue
		}
		if f.Flow.IDOf(fa.X).Key == owner {
			return true
		}
	}
	return false
}
