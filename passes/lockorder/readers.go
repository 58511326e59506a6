package lockorder

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/internal/confidence"
	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// readAgainByClass reports a read lock, taken through the call of via,
// of a lock of the class of a lock the caller holds for reading, when the
// two instances differ as far as the paths say (s.mu held, the callee
// read-locks s.index.store.mu) and a method of another type than the
// lock's owner is on the way: an index, a cache or a view that reaches
// back to its owner, most often the very instance the caller holds. Only
// the class is known, so it is a note. A parent and its child (methods of
// the owner's type all the way) have their own order and are left alone,
// as are classes no writer can take. It reports whether it reported.
func (c *checker) readAgainByClass(pos token.Pos, via string, id lockstate.ID, mode lockstate.Mode, held []lockstate.Held) bool {
	if mode != lockstate.Read || id.Class == "" || c.call == nil {
		return false
	}
	for _, h := range held {
		if h.Mode != lockstate.Read || h.Class != id.Class || h.Key == id.Key || c.goReleased[h.Key] || c.readOnly[h.Class] {
			continue
		}
		chain := c.callChain(c.fn.Flow, c.call, id.Key)
		other := c.otherType(h.Class, chain)
		if other == "" {
			continue
		}
		how := ""
		if other != via {
			how = " through " + other
		}
		msg := fmt.Sprintf("%s read-locked again%s, which read-locks %s, a lock of its class,%s while held (%s)",
			h.Name, c.through(via), id.Name, how, c.where(h))
		sites := append([]site{{pos: h.Pos, msg: h.Name + " locked here"}}, chain...)
		d := analysis.Diagnostic{Pos: pos, Category: "rlock-reentry", Message: msg, Related: relatedInfo(sites)}
		c.rep.ReportLevel(d, confidence.Note, "the instance read-locked again is known only by its class")
		return true
	}
	return false
}

// otherType returns the first function on the way to the acquisition (the
// call's callee, then chain's functions) that is a method of a type other
// than the owner of the lock class, or "".
func (c *checker) otherType(class string, chain []site) string {
	fns := []*ssa.Function{summary.StaticCallee(c.call)}
	for _, s := range chain {
		fns = append(fns, s.fn)
	}
	for _, fn := range fns {
		if fn == nil {
			continue
		}
		recv := recvNamed(fn)
		if recv == nil || recv.Pkg() == nil {
			continue
		}
		if !strings.HasPrefix(class, "(*"+recv.Pkg().Path()+"."+recv.Name()+").") {
			return strings.TrimPrefix(summary.SSAFuncName(fn, nil), c.pass.Pkg.Name()+".")
		}
	}
	return ""
}

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
