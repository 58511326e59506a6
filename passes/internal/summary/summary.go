// Package summary computes lockaudit's function summaries and the lock state
// of every function, once per package, for all of lockaudit's analyzers.
//
// Its Analyzer (lockfacts) runs the lock-state dataflow over each function's
// SSA form, derives a Summary per function (lock effects of wrappers, whether
// and why it may block, which func parameters it calls, which lock classes it
// acquires) and exports the summaries of package-level functions and methods
// as analysis facts, so that they cross package boundaries.
package summary

import (
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A Reason explains why a function may block (or runs code its caller does
// not control): the chain of calls from the function to the operation.
type Reason struct {
	// Kind is the category of the final operation: a catalogue category
	// (sleep, wait, net, file, exec, db), "chan", "select" or "callback".
	Kind string
	// Chain lists the functions from the summarised one down to the
	// operation, which is last (such as "(*os.File).Sync" or "channel send").
	Chain []string
	// CondLock is, for a wait on a sync.Cond, the class of the Cond's L when
	// it is known: a caller holding only that lock is not blocked by it,
	// since Wait releases it.
	CondLock string
	// Released lists the classes of the caller's locks that the function
	// has released where the operation happens (an unlock/relock window
	// in a *Locked helper): a caller holding only those is not affected.
	Released []string
	// Plausible, when not empty, says why the reason is only plausible
	// (a note, not a warning): the code run is of open origin.
	Plausible string
	// When lists conditions on the function's parameters that must all
	// hold for the operation to be reached: "only if flush".
	When []lockstate.Cond
	// Guarded is set when a step of the chain runs only under a
	// condition its caller could not decide (the state of an object it
	// was handed): a reason without such steps is preferred.
	Guarded bool
	// Join is set when the operation only waits for the package's own
	// worker goroutines to finish a short step (see joins.go): it blocks
	// a caller only through the locks the workers take, JoinTakes (lock
	// classes, "class (read)" for a read lock). Join reasons are the
	// weakest: any other reason replaces one.
	Join      bool
	JoinTakes []string
	// Chan is, for a reason of Summary.Sends, the class of the channel
	// the send puts into.
	Chan string
}

// MaxChain bounds the length of a reason chain kept in a summary: a longer
// chain keeps its first MaxChain-1 functions and the operation.
const MaxChain = 8

func (r *Reason) extend(fn string) *Reason {
	chain := make([]string, 0, len(r.Chain)+1)
	chain = append(chain, fn)
	chain = append(chain, r.Chain...)
	if len(chain) > MaxChain {
		chain = append(chain[:MaxChain-1:MaxChain-1], chain[len(chain)-1])
	}
	return &Reason{Kind: r.Kind, Chain: chain, CondLock: r.CondLock, Released: r.Released, Plausible: r.Plausible, When: r.When, Guarded: r.Guarded,
		Join: r.Join, JoinTakes: r.JoinTakes, Chan: r.Chan}
}

// String renders the chain, such as "flush -> (*os.File).Sync".
func (r *Reason) String() string { return strings.Join(r.Chain, " -> ") }

// A Summary describes what calling a function does, as far as locks are
// concerned.
type Summary struct {
	// Effects are the locks the function returns holding or having
	// released (lock and unlock wrappers).
	Effects []lockstate.Effect
	// Blocks says why the function may block: one reason that holds
	// whatever the arguments, or up to maxBlocks reasons that each hold
	// only under their conditions (Reason.When) on the parameters.
	Blocks []*Reason
	// Callback is why the function runs code its caller does not control:
	// it calls a func-typed field or variable directly (or hands an unknown
	// func value to a callee that calls it). Unknown is the same for a call
	// of an interface method that is not known to be cheap. Neither is
	// propagated to callers' callers: lockaudit reports one level, within a
	// package, because deeper chains end in the package's own dispatch
	// tables far more often than in foreign code. Other packages' hooks
	// (sync.Pool.New, say) are documented contracts, so heldcall ignores
	// these two for callees in other packages; the facts carry them for
	// other consumers.
	Callback *Reason
	Unknown  *Reason
	// CallsParams lists the indices of func-typed parameters that the
	// function calls (the receiver is parameter 0).
	CallsParams []int
	// CalledReleased lists, for parameters in CallsParams that the
	// function calls only inside an unlock/relock window of its caller's
	// locks (mu.Unlock(); f(); mu.Lock()), the classes of those locks
	// released at every call of the parameter: the func value the caller
	// passes runs without them.
	CalledReleased []ParamClasses
	// HeldAtParams lists, for parameters in CallsParams, the locks the
	// function itself holds (rooted at its parameters, or package-level)
	// where it calls the parameter: a visitor that calls its func under
	// its own lock. A func value the caller passes that takes one of them
	// deadlocks; one that takes another lock orders it after them. Only
	// the package's own callers read it: it is not part of the facts.
	HeldAtParams []ParamHeld
	// InvokesParams lists the indices of interface-typed parameters whose
	// I/O methods (Read, Write, ReadFrom, WriteTo, WriteString) the
	// function calls (fmt.Fprintf's w, io.Copy's dst and src): what they
	// do depends on the value the caller passes.
	InvokesParams []int
	// Acquires lists the lock classes the function acquires, directly or
	// through its callees, as "class" or "class (read)".
	Acquires []string
	// Takes lists the locks the function acquires (and may release again)
	// that its caller can name: reachable from a parameter, a free
	// variable or a global. A caller already holding one of them
	// deadlocks (lockorder). It holds the sync.Onces the function calls
	// Do on too (lockstate.Once mode): read it through Takes or
	// OnceTakes, which keep the two apart.
	Takes []lockstate.Effect
	// Sends lists the sends, directly or through callees in the
	// package, into channels made with a buffer, which do not block by
	// themselves (Reason.Chan is the channel's class): a caller holding a
	// lock that the channel's receivers take before they receive again
	// waits for them once the buffer is full (heldcall). They stay in the
	// package: the receivers are searched there.
	Sends []*Reason
	// NoReturn is set when the function never returns normally: every
	// path ends in a panic or in a call that never returns (os.Exit,
	// runtime.Goexit). What blocks on a path to such a call is not
	// reported (see noreturn.go).
	NoReturn bool
	// Fresh is set, in a fact, on a constructor: every return of the
	// function is an object it makes (or another constructor's) and lets
	// go nowhere else first. Its callers in other packages hold the only
	// reference to what it returns, as they would to an object they
	// allocated.
	Fresh bool
	// Starts lists the indices (the receiver first) of the func
	// parameters the function runs on goroutines of their own (a
	// starter: k8s.io/apimachinery's wait.Group.Start; see starters.go).
	Starts []int
	// Zeros lists, in a fact, the unexported fields of the objects the
	// function returns that it keeps zero (see resultzeros.go): fields
	// that no function of the package writes on an object it is handed,
	// so that they keep their value wherever the object goes.
	Zeros []ZeroField

	// version counts the changes of the summary while the package's
	// summaries are propagated: a caller skips a callee that has not
	// changed since it last merged it.
	version int
}

// A ZeroField says that the field named Field of the object the function
// returns as its Result'th result is still zero (or the result is nil),
// unless all the conditions on the function's parameters of one of the
// entries of Unless hold: bbolt's Begin returns a transaction whose
// writable is false unless its writable parameter is true.
type ZeroField struct {
	Result int
	Field  string
	Unless [][]lockstate.Cond
}

// A ParamClasses is a parameter with lock classes.
type ParamClasses struct {
	Param   int
	Classes []string
}

// A ParamHeld is the locks a function holds where it calls its Param'th
// parameter (see Summary.HeldAtParams).
type ParamHeld struct {
	Param int
	Held  []lockstate.Held
}

// maxBlocks bounds the conditional block reasons kept in a summary.
const maxBlocks = 4

// AnyBlock returns the nearest reason why the function may block under
// some arguments, or nil. A join reason (Reason.Join) blocks only callers that
// hold a lock its workers take: use Blocks to see every reason.
func (s *Summary) AnyBlock() *Reason {
	if s == nil || len(s.Blocks) == 0 {
		return nil
	}
	var best *Reason
	for _, b := range s.Blocks {
		if !b.Join && nearer(b, best) {
			best = b
		}
	}
	if best == nil {
		return s.Blocks[0]
	}
	return best
}

// nearer reports whether the reason r explains a call better than best
// (nil: none yet): a proven reason before a plausible one, one made with
// all the caller's locks held before one made with some released, then
// the shorter chain, the operation a reviewer of the call can check, then the
// stronger operation.
func nearer(r, best *Reason) bool {
	switch {
	case best == nil:
		return true
	case (r.Plausible == "") != (best.Plausible == ""):
		return r.Plausible == ""
	case r.releases() != best.releases():
		// One made with all the caller's locks held blocks every
		// caller; one in an unlock window or a Cond's wait, fewer.
		return !r.releases()
	case len(r.Chain) != len(best.Chain):
		return len(r.Chain) < len(best.Chain)
	}
	return r.strength() > best.strength()
}

// addBlock adds a block reason: a reason without conditions replaces the
// conditional ones (and one without guarded steps a guarded one), and a
// reason whose conditions include another's adds nothing. It reports whether the summary changed.
func (s *Summary) addBlock(r *Reason) bool {
	merged := false
	if r.Join {
		r, merged = s.mergeJoins(r)
	}
	i, add := s.blockEffect(r.When, r.Guarded, r.releases(), r.Plausible != "", r.strength(), len(r.Chain))
	if i >= 0 {
		s.Blocks[i] = r
		return true
	}
	if !add {
		return merged
	}
	kept := s.Blocks[:0:0]
	for _, b := range s.Blocks {
		if !drops(r.When, r.Join, r.releases(), r.Plausible != "", b) {
			kept = append(kept, b)
		}
	}
	s.Blocks = append(kept, r)
	return true
}

// mergeJoins makes the join r and the joins of s it can replace or be
// dropped for (one's conditions include the other's) name the locks of
// both: whichever is kept, a caller holding a lock either join's workers
// take still waits for them. It returns r, copied when it gains locks,
// and whether a join of s gained some.
func (s *Summary) mergeJoins(r *Reason) (*Reason, bool) {
	changed := false
	for i, b := range s.Blocks {
		if !b.Join || !subset(b.When, r.When) && !subset(r.When, b.When) {
			continue
		}
		takes := unionClasses(b.JoinTakes, r.JoinTakes)
		if len(takes) != len(b.JoinTakes) {
			nb := *b
			nb.JoinTakes = takes
			s.Blocks[i] = &nb
			changed = true
		}
		if len(takes) != len(r.JoinTakes) {
			nr := *r
			nr.JoinTakes = takes
			r = &nr
		}
	}
	return r, changed
}

// drops reports whether a new reason under conditions when, a join or
// not, makes the reason b redundant: it holds whenever b does, and a join
// never stands in for a reason that surely blocks.
// A reason made with some of the caller's locks released (a Cond's wait)
// drops no reason made with all of them held, as a join drops no other
// reason: the second blocks callers the first does not. A plausible
// reason (a note's) drops no proven one.
func drops(when []lockstate.Cond, join, releases, plausible bool, b *Reason) bool {
	return subset(when, b.When) && (join == b.Join || !join) && (!releases || b.releases()) && (!plausible || b.Plausible != "")
}

// blockEffect says what addBlock does with a reason of the given
// strength, conditions, guardedness and chain length, whatever its chain: it replaces
// s.Blocks[i] (i >= 0), or it is added (add), or s does not change.
// Callers that extend a callee's reasons build the new chain only when it
// is needed.
func (s *Summary) blockEffect(when []lockstate.Cond, guarded, releases, plausible bool, strong, length int) (i int, add bool) {
	join := strong < 0
	for i, b := range s.Blocks {
		if !subset(b.When, when) {
			continue
		}
		same := subset(when, b.When)
		switch {
		case b.Join && !join:
			// Any reason replaces a join under the same conditions,
			// and is kept beside one under fewer.
			if same {
				return i, false
			}
			continue
		case !b.Join && join:
			return -1, false // b holds whenever r does, and blocks surely
		case b.releases() && !releases:
			// So does a reason made with all the caller's locks held
			// replace one made with some released.
			if same {
				return i, false
			}
			continue
		case !b.releases() && releases:
			return -1, false // b holds whenever r does, and blocks more callers
		case b.Plausible != "" && !plausible:
			// A proven reason replaces a plausible one under the
			// same conditions, and is kept beside one under fewer.
			if same {
				return i, false
			}
			continue
		case b.Plausible == "" && plausible:
			return -1, false // b holds whenever r does, and is proven
		}
		// b holds whenever r does. Under the same conditions, a
		// certain path replaces a guarded one, an operation that surely waits
		// (I/O, a sleep) one that may not (a channel used as a pool),
		// and a shorter chain a longer one: the nearest operation is
		// the one a reviewer of the call can check.
		if same && (b.Guarded && !guarded || b.Guarded == guarded && (strong > b.strength() || strong == b.strength() && length < len(b.Chain))) {
			return i, false
		}
		return -1, false
	}
	// The reasons whose conditions include r's are dropped.
	kept := 0
	for _, b := range s.Blocks {
		if !drops(when, join, releases, plausible, b) {
			kept++
		}
	}
	return -1, kept < maxBlocks
}

// releases reports whether the reason's operation happens with some of
// the caller's locks released (a Cond's L, an unlock/relock window): it
// blocks fewer callers than one made with all of them held.
func (r *Reason) releases() bool { return r.CondLock != "" || len(r.Released) > 0 }

// strength ranks block reasons by how surely the operation waits: I/O and
// sleeps wait, a WaitGroup or Cond waits for other goroutines, a channel
// operation or select may find its peer ready, and a join with the
// package's own workers waits only for their short step.
func (r *Reason) strength() int {
	if r.Join {
		return -1
	}
	switch r.Kind {
	case "chan", "select":
		return 0
	case "wait", "blocks":
		return 1
	}
	return 2
}

// subset reports whether every element of a is in b.
func subset[T comparable](a, b []T) bool {
	for _, c := range a {
		if !slices.Contains(b, c) {
			return false
		}
	}
	return true
}

// BlockAt returns the nearest (see nearer) of s's block reasons that can
// hold at call, a call in fn, with the given arguments (the callee's
// parameters in order) and, for a closure, bindings (its captured values),
// or nil. A reason that surely blocks comes before a join (Reason.Join).
// call may be nil when the reasons are judged for a value rather than a
// call (a method value handed to a callee).
func (r *Result) BlockAt(s *Summary, fn *ssa.Function, call *ssa.CallCommon, args, bindings []ssa.Value) *Reason {
	return blockAt(s, fn, judged{call: call, writers: r.a.writers, exits: r.a.exits, zeros: r.a.zeros}, args, bindings)
}

// blockAt is BlockAt for the judged call at.
func blockAt(s *Summary, fn *ssa.Function, at judged, args, bindings []ssa.Value) *Reason {
	if s == nil {
		return nil
	}
	var join, best *Reason
	for _, b := range s.Blocks {
		if ok, _, _ := condsHold(fn, at, b.When, args, bindings); ok {
			if !b.Join {
				if nearer(b, best) {
					best = b
				}
				continue
			}
			if join == nil {
				join = b
			}
		}
	}
	if best != nil {
		return best
	}
	return join
}

// MayHold reports whether the conditions of the reason r on the
// parameters may hold at call, a call in fn with the given arguments (the
// callee's parameters in order) and, for a closure, bindings.
func (r *Result) MayHold(reason *Reason, fn *ssa.Function, call *ssa.CallCommon, args, bindings []ssa.Value) bool {
	ok, _, _ := condsHold(fn, judged{call: call, writers: r.a.writers, exits: r.a.exits, zeros: r.a.zeros}, reason.When, args, bindings)
	return ok
}

// maxSends bounds the channels kept in Sends.
const maxSends = 4

// addSend adds the buffered send r, keeping one reason per channel class,
// the shortest chain under the fewest conditions.
func (s *Summary) addSend(r *Reason) bool {
	if r.Chan == "" {
		return false
	}
	for i, b := range s.Sends {
		if b.Chan != r.Chan {
			continue
		}
		if len(r.When) < len(b.When) || len(r.When) == len(b.When) && len(r.Chain) < len(b.Chain) {
			s.Sends[i] = r
			return true
		}
		return false
	}
	if len(s.Sends) >= maxSends {
		return false
	}
	s.Sends = append(s.Sends, r)
	return true
}

// SendsAt returns the buffered sends of s whose conditions may hold at
// call, a call in fn, with the given arguments and bindings.
func (r *Result) SendsAt(s *Summary, fn *ssa.Function, call *ssa.CallCommon, args, bindings []ssa.Value) []*Reason {
	if s == nil {
		return nil
	}
	var out []*Reason
	for _, b := range s.Sends {
		if r.MayHold(b, fn, call, args, bindings) {
			out = append(out, b)
		}
	}
	return out
}

// maxTakes bounds the locks kept in Takes.
const maxTakes = 16

func (s *Summary) addTake(t lockstate.Effect) bool {
	if i := s.takeIndex(t.Lock.Key, "", t.Mode); i >= 0 {
		weaker, fewer := replacesTake(s.Takes[i], t.When, t.Outside)
		if weaker {
			s.Takes[i].When = t.When
		}
		if fewer {
			s.Takes[i].Outside = t.Outside
		}
		return weaker || fewer
	}
	if s.takesFull(t.Lock.Root, t.Mode) {
		return false
	}
	t.Lock.Arg, t.Lock.ArgPath = 0, ""
	s.Takes = append(s.Takes, t)
	return true
}

// takeChanges reports whether addTake would change s for a take, in mode,
// when and outside, of the lock whose key is prefix+path and whose root is
// of the given kind, without the lock's identity: callers that rebase a
// callee's takes build it only when it is needed.
func (s *Summary) takeChanges(prefix, path string, root lockstate.RootKind, mode lockstate.Mode, when []lockstate.Cond, outside []string) bool {
	if i := s.takeIndex(prefix, path, mode); i >= 0 {
		weaker, fewer := replacesTake(s.Takes[i], when, outside)
		return weaker || fewer
	}
	return !s.takesFull(root, mode)
}

// takeIndex returns the index of the take in mode of the lock whose key is
// prefix+path, or -1.
func (s *Summary) takeIndex(prefix, path string, mode lockstate.Mode) int {
	for i, o := range s.Takes {
		k := o.Lock.Key
		if o.Mode == mode && len(k) == len(prefix)+len(path) && strings.HasPrefix(k, prefix) && strings.HasSuffix(k, path) {
			return i
		}
	}
	return -1
}

// replacesTake reports whether a take under when, with outside released,
// replaces the condition (weaker: a weaker one, or none) or the released
// locks (fewer: fewer of the caller's) of the recorded take o.
func replacesTake(o lockstate.Effect, when []lockstate.Cond, outside []string) (weaker, fewer bool) {
	weaker = len(o.When) > 0 && !subset(o.When, when) && subset(when, o.When)
	fewer = len(o.Outside) > 0 && subset(outside, o.Outside) && !subset(o.Outside, outside)
	return weaker, fewer
}

// maxOnceTakes bounds the sync.Onces kept in Takes, which have a room of
// their own: they never crowd out a lock.
const maxOnceTakes = 4

// takesFull reports whether Takes has no room for a lock with the given
// root, taken in mode. Package-level locks (pools, once-initialised
// tables) would crowd out the receiver's own: they get half the room.
func (s *Summary) takesFull(root lockstate.RootKind, mode lockstate.Mode) bool {
	once := mode == lockstate.Once
	n := 0
	for _, t := range s.Takes {
		if (t.Mode == lockstate.Once) == once {
			n++
		}
	}
	if once {
		return n >= maxOnceTakes
	}
	return n >= maxTakes || (root == lockstate.RootGlobal && n >= maxTakes/2)
}

// acquireClass is the entry of Summary.Acquires for a lock of class taken
// in mode: a read lock's class is marked " (read)".
func acquireClass(class string, mode lockstate.Mode) string {
	if class != "" && mode == lockstate.Read {
		return class + " (read)"
	}
	return class
}

// maxAcquires bounds the lock classes kept in a summary.
const maxAcquires = 16

// FuncFact is a Summary exported for an exported function or method. It
// crosses vetx files in a compact form (factcodec.go), decoded on first
// use: read a fact another package exported through decoded.
type FuncFact struct {
	Summary
	raw []byte // the encoded summary, when not decoded yet
}

// AFact marks FuncFact as an analysis fact.
func (*FuncFact) AFact() {}

func (ff *FuncFact) String() string {
	f, err := ff.decoded()
	if err != nil {
		return "lockfacts(" + err.Error() + ")"
	}
	var parts []string
	for _, e := range f.Effects {
		op := "acquires"
		if e.Release {
			op = "releases"
		}
		lock := e.Lock.Class
		if lock == "" {
			lock = e.Lock.Key // a lock wrapper's, classed by the caller's argument
		}
		if e.Forever {
			lock += " for ever"
		}
		parts = append(parts, op+" "+lock)
	}
	for _, b := range f.Blocks {
		when := ""
		for _, c := range b.When {
			when += " if " + c.String()
		}
		parts = append(parts, "blocks: "+b.String()+when)
	}
	if f.Callback != nil {
		parts = append(parts, "runs "+f.Callback.Chain[len(f.Callback.Chain)-1])
	}
	if f.Unknown != nil {
		parts = append(parts, "runs "+f.Unknown.Chain[len(f.Unknown.Chain)-1])
	}
	if len(f.CallsParams) > 0 {
		parts = append(parts, "calls params")
	}
	if f.Fresh {
		parts = append(parts, "returns a new object")
	}
	for _, i := range f.Starts {
		parts = append(parts, "starts param "+itoa(i))
	}
	for _, z := range f.Zeros {
		part := "result " + itoa(z.Result) + " keeps " + z.Field + " zero"
		for i, u := range z.Unless {
			if i == 0 {
				part += " unless"
			} else {
				part += " or"
			}
			for j, c := range u {
				if j > 0 {
					part += " and"
				}
				part += " " + c.String()
			}
		}
		parts = append(parts, part)
	}
	for _, pc := range f.CalledReleased {
		parts = append(parts, "calls param "+itoa(pc.Param)+" without "+strings.Join(pc.Classes, ", "))
	}
	if len(f.Acquires) > 0 {
		parts = append(parts, "locks "+strings.Join(f.Acquires, ", "))
	}
	for _, t := range f.Takes {
		when := ""
		for _, c := range t.When {
			when += " if " + c.String()
		}
		parts = append(parts, "takes "+t.Lock.Key+when)
	}
	return "lockfacts(" + strings.Join(parts, "; ") + ")"
}

func (s *Summary) empty() bool {
	return len(s.Effects) == 0 && len(s.Blocks) == 0 && s.Callback == nil && s.Unknown == nil &&
		len(s.CallsParams) == 0 && len(s.CalledReleased) == 0 && len(s.InvokesParams) == 0 && len(s.Acquires) == 0 && len(s.Takes) == 0 && !s.NoReturn && !s.Fresh && len(s.Starts) == 0 && len(s.Zeros) == 0
}

// CallsParam reports whether the function calls its i'th parameter.
func (s *Summary) CallsParam(i int) bool {
	for _, p := range s.CallsParams {
		if p == i {
			return true
		}
	}
	return false
}

// InvokesParam reports whether the function calls methods of its i'th
// parameter.
func (s *Summary) InvokesParam(i int) bool { return slices.Contains(s.InvokesParams, i) }

func (s *Summary) addInvokedParam(i int) bool {
	if s.InvokesParam(i) {
		return false
	}
	s.InvokesParams = append(s.InvokesParams, i)
	sort.Ints(s.InvokesParams)
	return true
}

// ReleasedAt returns the classes of the caller's locks the function has
// released at every call of its i'th parameter (see CalledReleased).
func (s *Summary) ReleasedAt(i int) []string {
	if s == nil {
		return nil
	}
	for _, pc := range s.CalledReleased {
		if pc.Param == i {
			return pc.Classes
		}
	}
	return nil
}

// HeldAt returns the locks the function holds where it calls its i'th
// parameter.
func (s *Summary) HeldAt(i int) []lockstate.Held {
	if s == nil {
		return nil
	}
	for _, ph := range s.HeldAtParams {
		if ph.Param == i {
			return ph.Held
		}
	}
	return nil
}

// addHeldAtParam records locks held where the function calls its i'th
// parameter, each lock once.
func (s *Summary) addHeldAtParam(i int, held []lockstate.Held) {
	if len(held) == 0 {
		return
	}
	k, found := slices.BinarySearchFunc(s.HeldAtParams, i, func(ph ParamHeld, i int) int { return ph.Param - i })
	if !found {
		s.HeldAtParams = slices.Insert(s.HeldAtParams, k, ParamHeld{Param: i})
	}
	for _, h := range held {
		if !slices.ContainsFunc(s.HeldAtParams[k].Held, func(g lockstate.Held) bool { return g.Key == h.Key }) {
			s.HeldAtParams[k].Held = append(s.HeldAtParams[k].Held, h)
		}
	}
}

// addParam records a call of the function's i'th parameter made with the
// caller's locks of the classes released released, and reports whether
// the summary changed. A parameter called in several places keeps the
// classes released at all of them.
func (s *Summary) addParam(i int, released []string) bool {
	if !s.CallsParam(i) {
		s.CallsParams = append(s.CallsParams, i)
		sort.Ints(s.CallsParams)
		if len(released) > 0 {
			classes := slices.Clone(released)
			slices.Sort(classes)
			s.CalledReleased = append(s.CalledReleased, ParamClasses{Param: i, Classes: slices.Compact(classes)})
			slices.SortFunc(s.CalledReleased, func(a, b ParamClasses) int { return a.Param - b.Param })
		}
		return true
	}
	k := slices.IndexFunc(s.CalledReleased, func(pc ParamClasses) bool { return pc.Param == i })
	if k < 0 {
		return false // called with none released already
	}
	old := s.CalledReleased[k].Classes
	kept := make([]string, 0, len(old))
	for _, c := range old {
		if slices.Contains(released, c) {
			kept = append(kept, c)
		}
	}
	switch {
	case len(kept) == len(old):
		return false
	case len(kept) == 0:
		s.CalledReleased = slices.Delete(s.CalledReleased, k, k+1)
	default:
		s.CalledReleased[k].Classes = kept
	}
	return true
}

func (s *Summary) addAcquire(class string) bool {
	if class == "" || len(s.Acquires) >= maxAcquires {
		return false
	}
	i := sort.SearchStrings(s.Acquires, class)
	if i < len(s.Acquires) && s.Acquires[i] == class {
		return false
	}
	s.Acquires = append(s.Acquires, "")
	copy(s.Acquires[i+1:], s.Acquires[i:])
	s.Acquires[i] = class
	return true
}

// Func is what lockfacts knows about one function of the package.
type Func struct {
	Fn      *ssa.Function
	Summary *Summary
	// Flow is the lock state at every instruction. For a closure invoked in
	// place it is computed in the caller's context (the caller's held locks
	// are held at entry).
	Flow *lockstate.Result
	// forever holds the keys of the locks the function took through calls
	// that hold them for ever (forever.go).
	forever map[string]bool
	// InPlace is true when the function is a closure invoked in place and
	// analysed in its caller's context: a call of it is not itself a
	// finding, its body is.
	InPlace bool
}

// FuncName renders a function for messages: "Sleep" qualified by its
// package name, methods as "(*T).M" with the package name in front when it is
// not the current package's.
func FuncName(obj *types.Func, from *types.Package) string {
	qual := ""
	if obj.Pkg() != nil && obj.Pkg() != from {
		qual = obj.Pkg().Name() + "."
	}
	sig := obj.Signature()
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		star := ""
		if p, ok := t.(*types.Pointer); ok {
			t, star = p.Elem(), "*"
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return qual + "(" + star + n.Obj().Name() + ")." + obj.Name()
		}
		return qual + obj.Name()
	}
	return qual + obj.Name()
}

// SSAFuncName renders an SSA function, including closures ("Serve.func1")
// and synthetic wrappers, for messages.
func SSAFuncName(fn *ssa.Function, from *types.Package) string {
	if fn.Parent() != nil {
		parent := SSAFuncName(fn.Parent(), from)
		for i, anon := range fn.Parent().AnonFuncs {
			if anon == fn {
				return parent + ".func" + itoa(i+1)
			}
		}
		return parent + ".func"
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj != nil {
		return FuncName(obj, from)
	}
	return fn.Name()
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
