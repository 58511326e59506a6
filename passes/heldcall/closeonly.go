package heldcall

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A read lock of an RWMutex that only teardown methods (Close, Stop,
// Shutdown) write-lock makes nobody wait but a Close: readers do not wait
// for each other, and the read lock exists to keep the Close out of an
// operation in flight (an agent's WAL appends and truncations, fenced
// from the Close that closes the WAL). A finding under such read locks
// alone is a note. One other writer (a rotation that swaps the log) makes
// the readers' blocking operations a wait for it again.

// criticalSections records, by lock class, the critical sections of the
// package (the places where a lock of the class is taken) and whether
// each is in a teardown method.
type criticalSections map[string]map[sectionKey]bool

// A sectionKey is one acquisition of a lock: where it was taken, and
// whether as a reader.
type sectionKey struct {
	pos  int
	read bool
}

// add records the critical sections of the locks held at a program point
// of the function fn.
func (cs criticalSections) add(held []lockstate.Held, fn *ssa.Function) {
	for _, h := range held {
		if h.Class == "" || !h.Pos.IsValid() {
			continue
		}
		m := cs[h.Class]
		if m == nil {
			m = map[sectionKey]bool{}
			cs[h.Class] = m
		}
		k := sectionKey{int(h.Pos), h.Mode == lockstate.Read}
		if _, ok := m[k]; !ok {
			m[k] = !h.Inherited && isTeardown(fn)
		}
	}
}

// closeOnly reports whether every lock of held is a read lock of a class
// whose only write-locked critical sections in the package are in
// teardown methods.
func (cs criticalSections) closeOnly(held []lockstate.Held) bool {
	for _, h := range held {
		if h.Class == "" || h.Mode != lockstate.Read {
			return false
		}
		writers := 0
		for k, teardown := range cs[h.Class] {
			if k.read {
				continue
			}
			if !teardown {
				return false
			}
			writers++
		}
		if writers == 0 {
			return false
		}
	}
	return true
}
