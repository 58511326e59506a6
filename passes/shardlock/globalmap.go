package shardlock

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
	"github.com/lockaudit/lockaudit/passes/internal/srcname"
	"github.com/lockaudit/lockaudit/passes/internal/summary"
)

// A mapKey names one RWMutex field and one map field of a struct type.
type mapKey struct{ lock, m string }

// mapUse records how the package uses a map under its struct's RWMutex.
type mapUse struct {
	lockName, mapName string
	reads             map[token.Pos]bool // RLock acquisitions guarding a read
	writes            map[token.Pos]bool // Lock acquisitions guarding a write
	write             token.Pos          // the first write under Lock
}

// mapAccess records a read or write of a map field while its struct's
// RWMutex is held.
func (c *checker) mapAccess(f *summary.Func, m ssa.Value, st lockstate.State, write bool, pos token.Pos) {
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return
	}
	mapClass := lockstate.FieldClass(fa)
	owner := rootKey(f.Flow.IDOf(fa.X).Key)
	for _, lockField := range rwMutexFields(fa.X.Type()) {
		lockClass := lockField
		for _, h := range st.MustHeld() {
			if h.Class != lockClass || rootKey(h.Key) != owner {
				continue
			}
			k := mapKey{lock: lockClass, m: mapClass}
			u := c.maps[k]
			if u == nil {
				u = &mapUse{reads: map[token.Pos]bool{}, writes: map[token.Pos]bool{}}
				c.maps[k] = u
			}
			switch {
			case write && h.Mode == lockstate.Write:
				u.writes[h.Pos] = true
				if !u.write.IsValid() {
					u.write = pos
					if !pos.IsValid() {
						u.write = h.Pos
					}
				}
			case !write && h.Mode == lockstate.Read:
				u.reads[h.Pos] = true
				u.lockName = h.Name
				u.mapName = f.Flow.IDOf(fa).Name
			}
		}
	}
}

// rwMutexFields returns the classes of the sync.RWMutex fields of the
// struct that pointer type t points to.
func rwMutexFields(t types.Type) []string {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return nil
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []string
	for i := 0; i < st.NumFields(); i++ {
		ft, ok := types.Unalias(st.Field(i).Type()).(*types.Named)
		if ok && ft.Obj().Pkg() != nil && ft.Obj().Pkg().Path() == "sync" && ft.Obj().Name() == "RWMutex" {
			obj := named.Origin().Obj()
			out = append(out, "(*"+obj.Pkg().Path()+"."+obj.Name()+")."+st.Field(i).Name())
		}
	}
	return out
}

// reportGlobalMaps reports, at each read and write lock's acquisition, a
// map that one RWMutex guards for both reads and writes: each is a hotspot a
// profile may rank, and each is explained. The lock of a shard (or of a
// per-key entry) over its own map guards one slice of the keys, not the
// whole map.
func (c *checker) reportGlobalMaps() {
	keys := make([]mapKey, 0, len(c.maps))
	for k, u := range c.maps {
		if len(u.reads) > 0 && u.write.IsValid() && !c.shardLocks[k.lock] {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].lock != keys[j].lock {
			return keys[i].lock < keys[j].lock
		}
		return keys[i].m < keys[j].m
	})
	for _, k := range keys {
		u := c.maps[k]
		reads := sortedPos(u.reads)
		w, r := srcname.At(c.pass.Fset, u.write), srcname.At(c.pass.Fset, reads[0])
		for _, pos := range reads {
			c.globalMap(pos, fmt.Sprintf("%s is one RWMutex over the whole map %s, read under RLock here and written under Lock at %s: a waiting writer stalls every reader (consider sharding the map)",
				u.lockName, u.mapName, w), u.write, "written here")
		}
		for _, pos := range sortedPos(u.writes) {
			c.globalMap(pos, fmt.Sprintf("%s is one RWMutex over the whole map %s, written under Lock here and read under RLock at %s: a waiting writer stalls every reader (consider sharding the map)",
				u.lockName, u.mapName, r), reads[0], "read here")
		}
	}
}

func (c *checker) globalMap(pos token.Pos, msg string, related token.Pos, relatedMsg string) {
	if c.reported[pos] {
		return
	}
	c.reported[pos] = true
	c.report(analysis.Diagnostic{
		Pos:      pos,
		Category: "global-map",
		Message:  msg,
		Related:  []analysis.RelatedInformation{{Pos: related, Message: relatedMsg}},
	})
}

func sortedPos(set map[token.Pos]bool) []token.Pos {
	out := make([]token.Pos, 0, len(set))
	for pos := range set {
		out = append(out, pos)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
