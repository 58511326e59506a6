package lockorder

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// readOnlyLocks returns the classes of the package's RWMutex fields that
// no writer can take: unexported fields of the package's own struct types
// that the package only ever read-locks, and whose address goes nowhere
// else (no Locker, no Cond, no pointer handed out). Other packages cannot
// reach such a field, so a recursive RLock of it cannot wait behind a
// queued writer: it is not a deadlock.
func readOnlyLocks(pkg *types.Package, res *summary.Result) map[string]bool {
	classes := map[string]bool{} // class -> never write-locked nor exposed
	for _, f := range res.Funcs {
		for _, b := range f.Fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				class, ok := rwMutexField(pkg, fa)
				if !ok {
					continue
				}
				if _, seen := classes[class]; !seen {
					classes[class] = true
				}
				if !onlyReadLocked(fa) {
					classes[class] = false
				}
			}
		}
	}
	for class, ro := range classes {
		if !ro {
			delete(classes, class)
		}
	}
	return classes
}

// rwMutexField returns the lock class of fa when it addresses an
// unexported sync.RWMutex field of a struct type declared in pkg.
func rwMutexField(pkg *types.Package, fa *ssa.FieldAddr) (string, bool) {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return "", false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok {
		return "", false
	}
	obj := named.Origin().Obj()
	st, ok := named.Underlying().(*types.Struct)
	if !ok || obj.Pkg() != pkg || fa.Field >= st.NumFields() {
		return "", false
	}
	field := st.Field(fa.Field)
	if field.Exported() || !isRWMutex(field.Type()) {
		return "", false
	}
	return "(*" + pkg.Path() + "." + obj.Name() + ")." + field.Name(), true
}

func isRWMutex(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "RWMutex"
}

// onlyReadLocked reports whether every use of the lock's address is an
// RLock or an RUnlock.
func onlyReadLocked(fa *ssa.FieldAddr) bool {
	for _, r := range *fa.Referrers() {
		call, ok := r.(ssa.CallInstruction) // a call, a defer or a go
		if !ok {
			return false
		}
		common := call.Common()
		callee := common.StaticCallee()
		if callee == nil || len(common.Args) == 0 || common.Args[0] != fa {
			return false
		}
		switch callee.String() {
		case "(*sync.RWMutex).RLock", "(*sync.RWMutex).RUnlock", "(*sync.RWMutex).TryRLock":
		default:
			return false
		}
	}
	return true
}
