package lockstate

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// RootKind says what a lock's instance path is relative to.
type RootKind uint8

const (
	RootValue  RootKind = iota // a value local to the function (a call result, a phi)
	RootParam                  // a parameter (the receiver is parameter 0)
	RootFree                   // a free variable of a closure
	RootGlobal                 // a package-level variable
	RootLocal                  // a local variable
)

// An ID identifies a lock.
//
// Key is an instance key that is canonical within one function: two
// operations on the same lock instance have the same Key. Class names the
// lock independently of the instance: "pkg/path.mu" for a package-level
// variable, "(*pkg/path.T).mu" for a field of a named struct type (embedding
// resolved, generic types by their origin). Name is the instance as a reader
// would write it, such as "c.mu" or "s.shards[i].mu".
type ID struct {
	Key   string
	Class string
	Name  string

	Root      RootKind
	RootIndex int    // parameter or free variable index
	Path      string // selector path after the root, such as ".mu"
	NamePath  string // the same path for display

	// Full is the class with the path from the outermost named type kept:
	// "(*pkg.Conn).in.Mutex" where Class is "(*pkg.halfConn).Mutex". It
	// tells apart two locks of one type held by one owner (c.in and c.out),
	// for lock-order edges. FullPath is its suffix below the root.
	Full     string
	FullPath string

	// For a lock taken through a wrapper call, Arg is 1 + the index of the
	// call argument (the receiver is 0) it hangs off, and ArgPath its path
	// below that argument, so that a reader can name it from the source.
	Arg     int
	ArgPath string
}

// identifier computes lock identities for values of one function.
type identifier struct {
	fn *ssa.Function
	// free holds, for a closure analysed in its caller's context, the
	// identity of each captured variable in the caller.
	free []ID
	// allocs maps the keys of locals to their allocation. It is filled
	// while the function is analysed and read-only once frozen (a Result
	// is queried by several analyzers at once).
	allocs map[string]*ssa.Alloc
	// calls maps the keys of call results to their call, filled like
	// allocs.
	calls  map[string]*ssa.Call
	frozen bool
	// conds gives the lock each Cond field's L stands for.
	conds CondLockers
}

// of returns the identity of the lock whose address (or interface value) is v.
func (k *identifier) of(v ssa.Value) ID {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		if id, _, ok := k.condLocker(v); ok {
			return id
		}
		base := k.of(v.X)
		f, named := fieldOf(v.X.Type(), v.Field)
		return base.child("."+f, "."+f, fieldClass(named, base, f), "."+f)
	case *ssa.Field:
		base := k.of(v.X)
		f, named := fieldOf(types.NewPointer(v.X.Type()), v.Field)
		return base.child("."+f, "."+f, fieldClass(named, base, f), "."+f)
	case *ssa.IndexAddr:
		return k.index(v.X, v.Index)
	case *ssa.Index:
		return k.index(v.X, v.Index)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return k.of(v.X) // loads are transparent: p.mu and *(&p.mu) are one lock
		}
	case *ssa.ChangeType:
		return k.of(v.X)
	case *ssa.Convert:
		return k.of(v.X)
	case *ssa.MakeInterface:
		return k.of(v.X)
	case *ssa.ChangeInterface:
		return k.of(v.X)
	case *ssa.TypeAssert:
		return k.of(v.X)
	case *ssa.Parameter:
		for i, p := range k.fn.Params {
			if p == v {
				return ID{Key: "p" + strconv.Itoa(i), Name: v.Name(), Root: RootParam, RootIndex: i}
			}
		}
	case *ssa.FreeVar:
		for i, fv := range k.fn.FreeVars {
			if fv == v {
				if i < len(k.free) && k.free[i].Key != "" {
					return k.free[i]
				}
				return ID{Key: "f" + strconv.Itoa(i), Name: v.Name(), Root: RootFree, RootIndex: i}
			}
		}
	case *ssa.Global:
		name := v.Name()
		if v.Pkg != nil && k.fn.Pkg != nil && v.Pkg != k.fn.Pkg {
			name = v.Pkg.Pkg.Name() + "." + name
		}
		class := v.Name()
		if v.Pkg != nil {
			class = v.Pkg.Pkg.Path() + "." + v.Name()
		}
		return ID{Key: "g:" + class, Name: name, Class: class, Full: class, Root: RootGlobal}
	case *ssa.Alloc:
		if stored := CellValue(v); stored != nil {
			// A variable that holds one value for its whole life, such
			// as a parameter that a closure captures (SSA spills it to
			// a cell stored once at entry): the variable is the value.
			return k.of(stored)
		}
		name := v.Comment
		if name == "" {
			name = v.Name()
		}
		id := ID{Key: "l:" + name + "@" + strconv.Itoa(int(v.Pos())), Name: name, Root: RootLocal}
		if !k.frozen {
			if k.allocs == nil {
				k.allocs = map[string]*ssa.Alloc{}
			}
			k.allocs[id.Key] = v
		}
		if _, ptr := v.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Pointer); !ptr {
			// The variable holds the lock (or a struct with it) by
			// value: the lock belongs to this function. A variable
			// holding a pointer (a parameter captured by a closure)
			// names somebody else's lock, classed by its type.
			id.Class = k.fn.String() + "." + name
			id.Full = id.Class
		}
		return id
	case *ssa.Call:
		if rw := rlockerOf(v); rw != nil {
			return k.of(rw) // mu.RLocker() locks mu's read side
		}
		name := "call"
		if callee := v.Call.StaticCallee(); callee != nil {
			name = callee.Name() + "()"
		} else if v.Call.IsInvoke() {
			name = v.Call.Method.Name() + "()"
		}
		id := ID{Key: "v:" + v.Name(), Name: name, Root: RootValue}
		if !k.frozen {
			if k.calls == nil {
				k.calls = map[string]*ssa.Call{}
			}
			k.calls[id.Key] = v
		}
		return id
	case *ssa.Phi:
		name := v.Comment
		if name == "" {
			name = v.Name()
		}
		return ID{Key: "v:" + v.Name(), Name: name, Root: RootValue}
	}
	return ID{Key: "v:" + v.Name(), Name: v.Name(), Root: RootValue}
}

func (k *identifier) index(x, idx ssa.Value) ID {
	base := k.of(x)
	key, name := "[?]", "[?]"
	switch i := idx.(type) {
	case *ssa.Const:
		if i.Value != nil && i.Value.Kind() == constant.Int {
			key, name = "["+i.Value.ExactString()+"]", "["+i.Value.ExactString()+"]"
		}
	default:
		key = "[" + k.of(idx).Key + "]"
		name = "[" + shortName(idx) + "]"
	}
	class := ""
	if base.Class != "" {
		class = base.Class + "[]"
	}
	return base.child(key, name, class, "[]")
}

// child extends id by a selector or index: keyPath for the key, namePath
// for display, the class of the result and fullSeg for the full class.
func (id ID) child(keyPath, namePath, class, fullSeg string) ID {
	out := ID{
		Key:       id.Key + keyPath,
		Class:     class,
		Name:      id.Name + namePath,
		Root:      id.Root,
		RootIndex: id.RootIndex,
		Path:      id.Path + keyPath,
		NamePath:  id.NamePath + namePath,
		FullPath:  id.FullPath + fullSeg,
	}
	switch {
	case id.Full != "":
		out.Full = id.Full + fullSeg
	default:
		out.Full = class
	}
	return out
}

// Rebase returns the identity of the lock at path id.Path below root: it maps
// a callee's parameter-relative lock onto the caller's argument.
func (id ID) Rebase(root ID) ID {
	out := ID{
		Key:       root.Key + id.Path,
		Name:      root.Name + id.NamePath,
		Class:     id.Class,
		Root:      root.Root,
		RootIndex: root.RootIndex,
		Path:      root.Path + id.Path,
		NamePath:  root.NamePath + id.NamePath,
	}
	if out.Class == "" && root.Class != "" {
		out.Class = root.Class + id.FullPath
	}
	out.FullPath = root.FullPath + id.FullPath
	switch {
	case root.Full != "":
		out.Full = root.Full + id.FullPath
	case id.Full != "":
		out.Full = id.Full
	default:
		out.Full = out.Class
	}
	return out
}

// shortName names an index value for display.
func shortName(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.Phi:
		if v.Comment != "" {
			return v.Comment
		}
	case *ssa.UnOp:
		if a, ok := v.X.(*ssa.Alloc); ok && a.Comment != "" {
			return a.Comment
		}
	}
	return "i"
}

// fieldClass is the class of field f: the owning named struct type if there
// is one, otherwise the owner's class extended by the field. A lock
// wrapper type (see LockWrapper) names no class of its own: every lock
// of a program that wraps its mutexes in one (cmtsync.Mutex,
// deadlock.Mutex) would be one class. Its field is classed by the field
// that holds the wrapper, "(*types.PartSet).mtx.Mutex", or left to the
// caller's argument for a wrapper reached from a parameter (see Rebase).
// So is a sync.Cond's L: the Conds of a program have their own lock each,
// "(*pkg.pool).cond.L", not one class (*sync.Cond).L that would join every
// Cond's lock into one cycle.
func fieldClass(named *types.Named, base ID, f string) string {
	if named != nil && (LockWrapper(named) || IsSyncCond(named)) {
		if base.Class != "" {
			return base.Class + "." + f
		}
		return ""
	}
	if named != nil {
		return FieldClassPrefix(named) + f
	}
	if base.Class != "" {
		return base.Class + "." + f
	}
	return ""
}

// FieldClassPrefix is what the classes of the fields of the struct type
// named begin with, "(*pkg/path.T).", generic types by their origin. A
// lock wrapper type's fields are classed by the field holding the wrapper
// instead (see fieldClass).
func FieldClassPrefix(named *types.Named) string {
	obj := named.Origin().Obj()
	path := ""
	if obj.Pkg() != nil {
		path = obj.Pkg().Path() + "."
	}
	return "(*" + path + obj.Name() + ")."
}

// fieldOf returns the name of field i of the struct that pointer type t
// points to, and the named type that declares the struct, if any.
func fieldOf(t types.Type, i int) (string, *types.Named) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	t = types.Unalias(t)
	named, _ := t.(*types.Named)
	st, _ := t.Underlying().(*types.Struct)
	if st == nil || i >= st.NumFields() {
		return "field" + strconv.Itoa(i), named
	}
	return st.Field(i).Name(), named
}

// FieldClass is the class of the field a FieldAddr selects, as lock classes
// name fields: "(*pkg/path.T).f" for a field of a named struct type, "" for
// a field of an unnamed struct.
func FieldClass(fa *ssa.FieldAddr) string {
	f, named := fieldOf(fa.X.Type(), fa.Field)
	if named == nil {
		return ""
	}
	return fieldClass(named, ID{}, f)
}

// CellValue returns the value a variable cell holds when the cell is
// written exactly once, by a store of a parameter, a free variable (a
// captured parameter) or an address below one (see stableAddr), and
// otherwise only read or captured. It returns nil
// for cells of lock values, which are the lock itself.
func CellValue(alloc *ssa.Alloc) ssa.Value {
	if val := SetOnce(alloc); stableAddr(val, 0) {
		return val
	}
	return nil
}

// SetOnce returns the value of the one store into the variable cell, if
// the cell is otherwise only read or captured (no address of it is handed
// out), or nil.
func SetOnce(cell *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, ref := range *cell.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != cell || val != nil {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure, *ssa.DebugRef:
			// Captured by reference: closures read it.
		default:
			return nil
		}
	}
	return val
}

// stableAddr reports whether v names the same object wherever the function
// reads it: a parameter, a free variable, a package variable, or the
// address of a field (or constant index) below one of those, such as
// f := &w.flusher kept in a variable a deferred closure captures.
func stableAddr(v ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return true
	case *ssa.FieldAddr:
		return stableAddr(v.X, depth+1)
	case *ssa.IndexAddr:
		_, isConst := v.Index.(*ssa.Const)
		_, isArray := v.X.Type().Underlying().(*types.Pointer)
		return isConst && isArray && stableAddr(v.X, depth+1)
	}
	return false
}

// LockWrapper reports whether the named type is a struct of locks only
// (type Mutex struct{ sync.Mutex }, a deadlock detector's wrapper): a
// type that stands for a mutex, not an owner of one.
func LockWrapper(named *types.Named) bool {
	return lockWrapper(named, 0)
}

func lockWrapper(named *types.Named, depth int) bool {
	st, ok := named.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 || depth > 3 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		t := types.Unalias(st.Field(i).Type())
		if IsLockType(t) {
			if _, ptr := t.(*types.Pointer); !ptr {
				continue
			}
		}
		n, ok := t.(*types.Named)
		if !ok || !lockWrapper(n, depth+1) {
			return false
		}
	}
	return true
}

// SameOwner reports whether the lock m guards the lock l's instance: m is
// a package-level lock, or both are fields of one object (n.snapMu and
// n.RWMutex). The keys must be of one function.
func SameOwner(l, m ID) bool {
	if m.Root == RootGlobal {
		return true
	}
	lp, mp := ownerKey(l.Key), ownerKey(m.Key)
	return lp != "" && lp == mp
}

// ownerKey returns the key of the object whose field the lock key names,
// or "" when it is not a field.
func ownerKey(key string) string {
	i := strings.LastIndexByte(key, '.')
	if i <= 0 || strings.ContainsAny(key[i:], "[]") {
		return ""
	}
	return key[:i]
}

// IsSyncCond reports whether t is sync.Cond.
func IsSyncCond(t types.Type) bool { return isSyncNamed(t, "Cond") }
