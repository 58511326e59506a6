package summary

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// This file finds the read-write locks that only teardown takes for
// writing: a close fence. The object's work takes the read side (every
// appender logging to the write-ahead log, the truncation pass), and only
// Close takes the write side, to wait for the work in flight and mark the
// object closed:
//
//	func (db *DB) log(rec []byte) error {
//		db.mtx.RLock() // readers share it: appenders do not wait for each other
//		defer db.mtx.RUnlock()
//		return db.wal.Log(rec)
//	}
//
//	func (db *DB) Close() error {
//		db.mtx.Lock() // the only writer
//		defer db.mtx.Unlock()
//		...
//	}
//
// Holding the read side across slow work delays no other reader, and no
// writer but the closer, which has to wait for the work in flight anyway.

// noteHolders records that fn holds the locks of held (lockHolders), and
// which of them it holds for writing (lockWriters).
func (a *analyzer) noteHolders(fn *ssa.Function, held []lockstate.Held) {
	for _, h := range held {
		if h.Class == "" {
			continue
		}
		noteHolder(a.lockHolders, h.Class, fn)
		if h.Mode == lockstate.Write {
			noteHolder(a.lockWriters, h.Class, fn)
		}
	}
}

// noteHolder records in m that fn (its outermost function) holds a lock
// of class.
func noteHolder(m map[string]map[*ssa.Function]bool, class string, fn *ssa.Function) {
	fns := m[class]
	if fns == nil {
		fns = map[*ssa.Function]bool{}
		m[class] = fns
	}
	fns[Outermost(fn)] = true
}

// TeardownOnly reports whether locks of class are a close fence: the
// package's code outside _test.go files takes them for writing, and only
// in teardown functions (see teardown), and the lock is an unexported field
// of a struct whose address goes nowhere but its own Lock, RLock, Unlock
// and RUnlock calls, so that no code outside the package can take it.
func (r *Result) TeardownOnly(class string) bool {
	a := r.a
	if v, ok := a.fences[class]; ok {
		return v
	}
	if a.fences == nil {
		a.fences = map[string]bool{}
	}
	ok, closers := a.privateLock(class), 0
	for fn := range a.lockWriters[class] {
		if !ok {
			break
		}
		switch {
		case srcname.InTest(a.pass.Fset, fn.Pos()):
		case a.teardown(fn, 0):
			closers++
		default:
			ok = false
		}
	}
	ok = ok && closers > 0
	a.fences[class] = ok
	return ok
}

// maxTeardownDepth bounds the callers followed up from a helper to the
// teardown function that calls it.
const maxTeardownDepth = 3

// teardown reports whether fn ends its object's life: it is named so
// (srcname.Teardown), it marks its receiver ended (marksEnded: an atomic
// file's Cancel sets closed), or the package calls it only directly, from
// such functions.
func (a *analyzer) teardown(fn *ssa.Function, depth int) bool {
	return a.calledOnlyWithin(fn, func(fn *ssa.Function) bool {
		return srcname.Teardown(fn.Name()) || marksEnded(fn)
	}, depth)
}

// marksEnded reports whether the method fn sets a bool field of its
// receiver that says the object is ended (srcname.EndedFlag: closed,
// stopped, aborted...) to true, by a store or an atomic.Bool's Store, and
// never sets such a field back to false: a rotation that marks its writer
// closed while it swaps the file, then clears the flag, is a step of the
// object's life, not its end.
func marksEnded(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return false
	}
	recv := fn.Params[0]
	endedField := func(addr ssa.Value) bool {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok || fa.X != recv {
			return false
		}
		f := FieldVar(fa)
		return f != nil && srcname.EndedFlag(f.Name())
	}
	ended := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var addr, val ssa.Value
			switch instr := instr.(type) {
			case *ssa.Store:
				addr, val = instr.Addr, instr.Val
			case *ssa.Call:
				callee := instr.Common().StaticCallee()
				args := instr.Common().Args
				if callee != nil && callee.Name() == "Store" && len(args) == 2 {
					addr, val = args[0], args[1]
				}
			}
			if addr == nil || !endedField(addr) {
				continue
			}
			if !isTrue(val) {
				return false // cleared again, or set to what it was
			}
			ended = true
		}
	}
	return ended
}

// calledOnlyWithin reports whether fn is an entry (entry says which
// functions are), or the package calls it only directly, from such
// functions (or their helpers, up to maxTeardownDepth callers up).
func (a *analyzer) calledOnlyWithin(fn *ssa.Function, entry func(*ssa.Function) bool, depth int) bool {
	if entry(fn) {
		return true
	}
	calls := a.directCalls(fn)
	if depth >= maxTeardownDepth || len(calls) == 0 {
		return false
	}
	for _, cs := range calls {
		if !a.calledOnlyWithin(Outermost(cs.fn), entry, depth+1) {
			return false
		}
	}
	return true
}

// privateLock reports whether class is the class of an unexported struct
// field that holds a lock by value, and every address of the field the
// package takes is only locked and unlocked: it is never handed to other
// code (a Cond, a helper, an RLocker), which could take it out of sight.
func (a *analyzer) privateLock(class string) bool {
	return a.onlyLockedField(class, false)
}

// onlyLockedField is privateLock, or, with embedded, also allows a lock
// embedded in an exported struct (a listener's sync.RWMutex): its Lock
// and Unlock are promoted to the struct's methods, but the package's own
// code still shows what the lock is for.
func (a *analyzer) onlyLockedField(class string, embedded bool) bool {
	last := class[strings.LastIndexByte(class, '.')+1:]
	if last == "" || token.IsExported(last) && !embedded {
		return false
	}
	found := false
	for f, addrs := range a.indexed().fieldAddrs {
		hidden := !f.Exported() || embedded && f.Embedded()
		if f.Name() != last || !hidden {
			continue
		}
		for _, fa := range addrs {
			if lockstate.FieldClass(fa) != class {
				continue
			}
			found = true
			if !onlyLocked(fa) {
				return false
			}
		}
	}
	return found
}

// onlyLocked reports whether the address fa is used only as the receiver
// of lock operations.
func onlyLocked(fa *ssa.FieldAddr) bool {
	if _, isLock := fa.Type().(*types.Pointer).Elem().(*types.Named); !isLock {
		return false
	}
	for _, ref := range *fa.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			c := ref.Common()
			if lockstate.OpOf(c).Kind == lockstate.NoOp || len(c.Args) == 0 || c.Args[0] != ssa.Value(fa) {
				return false
			}
			for _, arg := range c.Args[1:] {
				if arg == ssa.Value(fa) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// WriteLocked reports whether the package holds a lock of class for
// writing anywhere.
func (r *Result) WriteLocked(class string) bool {
	return len(r.a.lockWriters[class]) > 0
}
