package heldcall

import "github.com/lockaudit/lockaudit/passes/internal/lockstate"

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
// package (the places where a lock of the class is taken) and which of
// them hold it across a blocking operation that is reported.
type criticalSections map[string]map[sectionKey]bool

// A sectionKey is one acquisition of a lock: where it was taken, and
// whether as a reader.
type sectionKey struct {
	pos  int
	read bool
}

func keyOf(h lockstate.Held) sectionKey {
	return sectionKey{int(h.Pos), h.Mode == lockstate.Read}
}

// add records the critical sections of the locks held at a program point.
func (cs criticalSections) add(held []lockstate.Held) {
	for _, h := range held {
		if h.Class == "" || !h.Pos.IsValid() {
			continue
		}
		m := cs[h.Class]
		if m == nil {
			m = map[sectionKey]bool{}
			cs[h.Class] = m
		}
		if _, ok := m[keyOf(h)]; !ok {
			m[keyOf(h)] = false
		}
	}
}

// blocks marks the critical sections of held as blocking.
func (cs criticalSections) blocks(held []lockstate.Held) {
	for _, h := range held {
		if m := cs[h.Class]; m != nil && h.Pos.IsValid() {
			m[keyOf(h)] = true
		}
	}
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
		for _, blocking := range m {
			if !blocking {
				return false
			}
		}
	}
	return true
}
