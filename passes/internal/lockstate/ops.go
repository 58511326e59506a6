package lockstate

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Mode is the mode a lock is held in.
type Mode uint8

const (
	Write Mode = iota // Lock
	Read              // RLock
	// Once is a sync.Once, held by its Do while the function Do was
	// given runs: exclusive, like Write, and never taken by Lock.
	Once
)

func (m Mode) String() string {
	switch m {
	case Read:
		return "read"
	case Once:
		return "once"
	}
	return "write"
}

// OpKind is the kind of a primitive lock operation.
type OpKind uint8

const (
	NoOp     OpKind = iota
	Acquire         // Lock, RLock
	Release         // Unlock, RUnlock
	TryAcq          // TryLock, TryRLock: acquires on the true branch
	CondWait        // sync.Cond.Wait: releases and re-takes the Cond's L
)

// An Op is a primitive lock operation found at a call.
type Op struct {
	Kind OpKind
	Mode Mode
	Recv ssa.Value // the lock (its address, or the Locker interface value)
}

// OpOf recognises the primitive lock operations: the methods of sync.Mutex,
// sync.RWMutex and sync.Cond.Wait, and Lock/Unlock/RLock/RUnlock called
// through an interface or a type parameter whose method set has them
// (sync.Locker, or a user's own locker interface).
func OpOf(call *ssa.CallCommon) Op {
	if call.IsInvoke() {
		return invokeOp(call)
	}
	if mc, ok := call.Value.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
		// A method value of the lock itself: unlock := mu.Unlock; unlock().
		if fn, ok := mc.Fn.(*ssa.Function); ok && strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
			if obj, ok := fn.Object().(*types.Func); ok {
				if op := syncOp(obj, mc.Bindings[0]); op.Kind != NoOp {
					return op
				}
				// A method value of a Locker interface: l.Unlock.
				if recv := obj.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
					if op := invokeOp(&ssa.CallCommon{Value: mc.Bindings[0], Method: obj}); op.Kind != NoOp {
						return op
					}
				}
			}
		}
	}
	callee := call.StaticCallee()
	if callee == nil || len(call.Args) == 0 {
		return Op{}
	}
	obj, _ := callee.Object().(*types.Func)
	if obj == nil {
		return Op{}
	}
	return syncOp(obj, call.Args[0])
}

// syncOp recognises a method of sync.Mutex, sync.RWMutex or sync.Cond
// called on recv.
func syncOp(obj *types.Func, recv ssa.Value) Op {
	sig := obj.Signature().Recv()
	if sig == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return Op{}
	}
	switch recvName(sig.Type()) {
	case "Mutex", "RWMutex":
		if kind, mode := methodOp(obj.Name()); kind != NoOp {
			return Op{Kind: kind, Mode: mode, Recv: recv}
		}
	case "Cond":
		if obj.Name() == "Wait" {
			return Op{Kind: CondWait, Recv: recv}
		}
	}
	return Op{}
}

func methodOp(name string) (OpKind, Mode) {
	switch name {
	case "Lock":
		return Acquire, Write
	case "RLock":
		return Acquire, Read
	case "Unlock":
		return Release, Write
	case "RUnlock":
		return Release, Read
	case "TryLock":
		return TryAcq, Write
	case "TryRLock":
		return TryAcq, Read
	}
	return NoOp, Write
}

// invokeOp recognises lock operations called through an interface.
func invokeOp(call *ssa.CallCommon) Op {
	m := call.Method
	kind, mode := methodOp(m.Name())
	if kind != Acquire && kind != Release {
		return Op{}
	}
	sig := m.Signature()
	if sig.Params().Len() != 0 || sig.Results().Len() != 0 {
		return Op{}
	}
	iface, _ := call.Value.Type().Underlying().(*types.Interface)
	if iface == nil {
		return Op{}
	}
	// Only a lock-shaped interface: it has the matching pair.
	pair := map[string]string{"Lock": "Unlock", "Unlock": "Lock", "RLock": "RUnlock", "RUnlock": "RLock"}[m.Name()]
	if !hasMethod(iface, pair) {
		return Op{}
	}
	return Op{Kind: kind, Mode: mode, Recv: call.Value}
}

func hasMethod(iface *types.Interface, name string) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		if iface.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// recvName is the name of the named type of a (pointer) receiver.
func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// IsLockType reports whether t (or what it points to) is sync.Mutex or sync.RWMutex.
func IsLockType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	return n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
}

// A Cond is a condition on a function's parameter that must hold for
// something the function does to happen: "blocks only if flush", "locks
// c.mu only if !hasLock", "waits only if c.started". A caller that passes
// a constant (or a fresh object, whose fields are zero) can tell that it
// does not hold.
type Cond struct {
	Param int    // the parameter (the receiver is 0); -1-i for a closure's i'th captured variable
	Path  string // the field path below it, such as ".started"; "" for the parameter itself
	Nil   bool   // a nil test: Value true means the value is nil
	Value bool   // the value the parameter (or field) must have, or the comparison's
	// Cmp, when not token.ILLEGAL, makes the condition a comparison of an
	// integer with the constant K: (x Cmp K) == Value.
	Cmp token.Token
	K   int64
	// Opt, when set, makes the condition a test of the options the
	// parameter (a list of options, or one) hands over: Value is whether
	// they set the option flag Opt ("path.Type.field"), which only
	// options made by the constructors Setters (comma-separated names
	// in Opt's package) can set.
	Opt, Setters string
}

func (c Cond) String() string {
	v := "true"
	switch {
	case c.Opt != "":
		v = "(sets " + c.Opt + ") is " + strconv.FormatBool(c.Value)
	case c.Cmp != token.ILLEGAL:
		v = "(" + c.Cmp.String() + " " + strconv.FormatInt(c.K, 10) + ") is " + strconv.FormatBool(c.Value)
	case c.Nil && c.Value:
		v = "nil"
	case c.Nil:
		v = "non-nil"
	case !c.Value:
		v = "false"
	}
	root := "p" + itoa(c.Param)
	if c.Param < 0 {
		root = "f" + itoa(-1-c.Param)
	}
	return root + c.Path + "==" + v
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
