package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/catalog"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
)

// A connection's write mutex is held across conn.Write and nothing else:
//
//	t.writeMu.Lock()
//	defer t.writeMu.Unlock()
//	_, err := t.conn.Write(frame)
//
// The critical section loads t.conn, but the field is the handle the
// operation runs on, set by the constructor before the transport is
// shared, not state the mutex guards: the mutex exists to serialise the
// writes. Such a load is not state when the field is an unexported field
// of the package that is stored only into objects no other goroutine can
// reach yet (a constructor's new object, a helper's parameter that every
// caller allocated, a constructor's result), its address is used for
// nothing but loads and stores, and no store of the whole struct replaces
// it. A field set anywhere else (a reconnect that swaps t.conn under the
// lock, a lazy dial) is state, and so is one whose value is also used for
// anything but a blocking operation or the handle's cheap methods (a nil
// check, a buffered writer's Write, whose buffer the lock guards), or one
// the package never runs a blocking operation on (a hasher, whose cheap
// Write changes the sum the lock guards).

// loadsHandle reports whether load reads a handle: an unexported field of
// the package that the package runs blocking operations of the catalogue
// on (operatedField), loaded only to run them or the handle's cheap
// methods (see onlyOperatedOn).
func (a *analyzer) loadsHandle(load *ssa.UnOp) bool {
	if load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	if _, nested := fa.X.(*ssa.FieldAddr); nested {
		return false // a struct embedded by value: its owner can be replaced whole
	}
	f := FieldVar(fa)
	if f == nil || f.Exported() || f.Pkg() != a.pkg.Pkg {
		return false
	}
	return a.onlyOperatedOn(load, 1) && a.operatedField(f.Origin())
}

// onlyOperatedOn reports whether every use of v is a blocking operation
// of the catalogue (as the receiver or an argument), a call of one of v's
// own methods that the catalogue knows are cheap (conn.SetWriteDeadline
// before conn.Write), or (depth allowing) a conversion to an interface
// used so (io.WriteString(t.f, s)).
func (a *analyzer) onlyOperatedOn(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			if _, isGo := r.(*ssa.Go); isGo {
				return false
			}
			if c := r.Common(); !a.blockingOp(c) && !handleMethod(c, v) {
				return false
			}
		case *ssa.MakeInterface:
			if depth == 0 || !a.onlyOperatedOn(r, depth-1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// usedByOp reports whether v is used by a blocking operation of the
// catalogue, directly or converted to an interface.
func (a *analyzer) usedByOp(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case ssa.CallInstruction:
			if _, isGo := r.(*ssa.Go); !isGo && a.blockingOp(r.Common()) {
				return true
			}
		case *ssa.MakeInterface:
			if a.usedByOp(r) {
				return true
			}
		}
	}
	return false
}

// operatedField reports whether the package's code runs a blocking
// operation of the catalogue on a value loaded from field f: a connection
// or a file, not a hasher whose cheap methods change its state.
func (a *analyzer) operatedField(f *types.Var) bool {
	if v, ok := a.operated[f]; ok {
		return v
	}
	found := false
	for _, fa := range a.indexed().fieldAddrs[f] {
		for _, r := range *fa.Referrers() {
			if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL && a.usedByOp(load) {
				found = true
				break
			}
		}
		if found {
			break
		}
	}
	if a.operated == nil {
		a.operated = map[*types.Var]bool{}
	}
	a.operated[f] = found
	return found
}

// handleMethod reports whether c calls a method of v that the catalogue
// knows is cheap: a deadline or an address of a connection.
func handleMethod(c *ssa.CallCommon, v ssa.Value) bool {
	return c.IsInvoke() && c.Value == v && catalog.Cheap(v.Type(), c.Method)
}

// settleHandles decides, once the package is analysed, the lock classes
// whose critical sections touch no state but the loads of fields they
// run blocking operations on (handleLoads): a class guards state if one
// of those fields can change once its object is shared.
func (a *analyzer) settleHandles() {
	for class, loads := range a.handleLoads {
		if a.guarding[class] {
			continue
		}
		for _, load := range loads {
			if !a.settledField(load.X.(*ssa.FieldAddr)) {
				a.guarding[class] = true
				break
			}
		}
	}
	a.handleLoads = nil
}

// settledField reports whether the field fa selects is stored only into
// objects no other goroutine can reach yet, and never replaced by a store
// of its whole struct once the object is shared.
func (a *analyzer) settledField(fa *ssa.FieldAddr) bool {
	f := FieldVar(fa).Origin()
	if v, ok := a.settled[f]; ok {
		return v
	}
	ok := a.eachFieldStore(f, func(fa *ssa.FieldAddr, st *ssa.Store) bool {
		return a.unpublishedAt(st.Parent(), fa.X, st)
	})
	if ok {
		owner := fa.X.Type().Underlying().(*types.Pointer).Elem()
		for _, st := range a.wholeStores(owner) {
			if !a.unpublishedAt(st.Parent(), st.Addr, st) {
				ok = false
				break
			}
		}
	}
	if a.settled == nil {
		a.settled = map[*types.Var]bool{}
	}
	a.settled[f] = ok
	return ok
}

// unpublishedAt reports whether the object obj points to, in fn, is one
// no other goroutine can reach yet at instruction at: an object fn
// allocates, a parameter every caller hands over unshared, or the result
// of a constructor of the package, not let escape before at.
func (a *analyzer) unpublishedAt(fn *ssa.Function, obj ssa.Value, at ssa.Instruction) bool {
	switch o := obj.(type) {
	case *ssa.Alloc:
		if o.Parent() != fn {
			return false
		}
	case *ssa.Parameter:
		i := slices.Index(fn.Params, o)
		if u := a.unsharedParams[strict][fn]; i < 0 || i >= len(u) || !u[i] {
			return false
		}
	case *ssa.Call:
		if !a.privateResult(o, strict) {
			return false
		}
	default:
		return false
	}
	return !a.escapesBefore(obj, at, nil, strict)
}

// wholeStores returns the stores, in the package's code (not its tests),
// of whole values of the struct type t (*t = T{...}), which replace every
// field of t.
func (a *analyzer) wholeStores(t types.Type) []*ssa.Store {
	if a.structStores == nil {
		a.structStores = map[types.Type][]*ssa.Store{}
		for _, fn := range a.srcFuncs {
			if srcname.InTest(fn.Prog.Fset, fn.Pos()) {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					if vt := st.Val.Type(); isStruct(vt) {
						a.structStores[vt] = append(a.structStores[vt], st)
					}
				}
			}
		}
	}
	var out []*ssa.Store
	for vt, sts := range a.structStores {
		if types.Identical(vt, t) {
			out = append(out, sts...)
		}
	}
	return out
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// handleCall reports whether the interface call c is a cheap method of a
// handle: a value loaded from a field only to run blocking operations on
// (see loadsHandle), such as conn.SetWriteDeadline before conn.Write.
func (a *analyzer) handleCall(c *ssa.CallCommon) bool {
	load, ok := c.Value.(*ssa.UnOp)
	return ok && handleMethod(c, load) && a.loadsHandle(load)
}
