// Package wrappedlocks is a consensus engine whose locks are all // want package:"3 lock-order edges"
// cmtsync wrappers: a lock's class is the field that holds the wrapper,
// not the wrapper type, or every lock of the program would be one of
// two classes, and any two orders across packages a cycle.
package wrappedlocks

import (
	"cmtsync"
	"cmttypes"
)

// State is the consensus state: the round's votes and block parts.
type State struct {
	mtx    cmtsync.RWMutex
	votes  *cmttypes.VoteSet
	parts  *cmttypes.PartSet
	height int64
}

// Round is one round of voting; it reports to its state.
type Round struct {
	mtx   cmtsync.Mutex
	state *State
	votes int
}

// AddVote takes the state's lock, then the vote set's. No cycle with
// PartSet.Add, whose order (the part set's lock, then the encoder's
// cache's) is between other locks.
func (cs *State) AddVote(key string) {
	cs.mtx.Lock()
	defer cs.mtx.Unlock()
	cs.votes.Add(key)
}

// AddPart adds a block part.
func (cs *State) AddPart(part []byte) {
	cs.parts.Add(part)
}

// Tally takes the state's lock, then a round's.
func (cs *State) Tally(r *Round) int {
	cs.mtx.RLock()
	defer cs.mtx.RUnlock()
	r.mtx.Lock() // want `r.mtx.Mutex locked while holding cs.mtx.RWMutex \(locked at wrappedlocks.go:43\); the opposite order takes r.state.mtx.RWMutex while holding r.mtx.Mutex at wrappedlocks.go:55: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*wrappedlocks.State\).mtx.RWMutex and \(\*wrappedlocks.Round\).mtx.Mutex\)`
	defer r.mtx.Unlock()
	return r.votes
}

// Close takes a round's lock, then its state's: the opposite order of
// Tally, between the same fields.
func (r *Round) Close() {
	r.mtx.Lock()
	defer r.mtx.Unlock()
	r.state.mtx.Lock() // want `r.state.mtx.RWMutex locked while holding r.mtx.Mutex \(locked at wrappedlocks.go:53\); the opposite order takes r.mtx.Mutex while holding cs.mtx.RWMutex at wrappedlocks.go:45: lock-order inversion \(plausible: the cycle is proven only between the lock classes \(\*wrappedlocks.Round\).mtx.Mutex and \(\*wrappedlocks.State\).mtx.RWMutex\)`
	r.state.height++
	r.state.mtx.Unlock()
}
