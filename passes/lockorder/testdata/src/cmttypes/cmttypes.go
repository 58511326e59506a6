// Package cmttypes holds a consensus engine's block types. Its locks
// are cmtsync wrappers, like those of the packages that import it.
package cmttypes // want package:"1 lock-order edges"

import (
	"cmtjson"
	"cmtsync"
)

// PartSet holds the parts of a proposed block.
type PartSet struct {
	mtx   cmtsync.Mutex
	parts [][]byte
}

// Add takes the part set's lock, then the encoder's type cache's.
func (ps *PartSet) Add(part []byte) {
	ps.mtx.Lock()
	defer ps.mtx.Unlock()
	cmtjson.Register("part")
	ps.parts = append(ps.parts, part)
}

// VoteSet counts the votes of one round.
type VoteSet struct {
	mtx   cmtsync.Mutex
	votes map[string]int
}

// Add counts a vote.
func (vs *VoteSet) Add(key string) {
	vs.mtx.Lock()
	vs.votes[key]++
	vs.mtx.Unlock()
}
