package heldcall

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lockaudit/lockaudit/passes/internal/lockstate"
)

// A lock that is held across a blocking operation in every one of its
// critical sections in the package (a compaction mutex that keeps
// compactions, reloads and deletions from overlapping, each of which does
// disk work) makes nothing wait that is not itself slow: serialising those
// operations is its purpose, and a finding under it alone is a note. One
// short critical section (a getter that reads a field under it, an
// enqueue) makes the lock's waits a latency problem again. It takes
// minSections critical sections to show a purpose: a lock taken in one or
// two places that block is as likely a bug reproduced in small.

// criticalSections records, by lock class, the critical sections of the
// package (the places where a lock of the class is taken) and what is
// known of each.
type criticalSections map[string]map[sectionKey]*section

// A section is what is known of one critical section.
type section struct {
	blocks   bool // it holds the lock across a reported blocking operation
	teardown bool // it is in a teardown method (Close, Stop, Shutdown)
}

// A sectionKey is one acquisition of a lock: where it was taken, and
// whether as a reader.
type sectionKey struct {
	pos  int
	read bool
}

func keyOf(h lockstate.Held) sectionKey {
	return sectionKey{int(h.Pos), h.Mode == lockstate.Read}
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
			m = map[sectionKey]*section{}
			cs[h.Class] = m
		}
		if _, ok := m[keyOf(h)]; !ok {
			m[keyOf(h)] = &section{teardown: !h.Inherited && isTeardown(fn)}
		}
	}
}

// blocks marks the critical sections of held as blocking.
func (cs criticalSections) blocks(held []lockstate.Held) {
	for _, h := range held {
		if sec := cs[h.Class][keyOf(h)]; sec != nil && h.Pos.IsValid() {
			sec.blocks = true
		}
	}
}

// closeOnly reports whether every lock of held is a read lock of a class
// whose only write-locked critical sections in the package are in
// teardown methods: a reader then makes nobody wait but a Close, which
// the read lock exists to keep out of an operation in flight.
func (cs criticalSections) closeOnly(held []lockstate.Held) bool {
	for _, h := range held {
		if h.Class == "" || h.Mode != lockstate.Read {
			return false
		}
		writers := 0
		for k, sec := range cs[h.Class] {
			if k.read {
				continue
			}
			if !sec.teardown {
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

// minSections is the number of critical sections, all blocking, that
// show a lock exists to serialise blocking operations.
const minSections = 3

// serialise reports whether every lock of held is of a class whose every
// critical section in the package blocks, and that has at least
// minSections of them.
func (cs criticalSections) serialise(held []lockstate.Held) bool {
	for _, h := range held {
		m := cs[h.Class]
		if h.Class == "" || h.Inherited || len(m) < minSections {
			return false
		}
		for _, sec := range m {
			if !sec.blocks {
				return false
			}
		}
	}
	return true
}
